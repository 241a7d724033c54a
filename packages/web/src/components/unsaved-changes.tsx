import { Button, Modal } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useBlocker, type Location } from 'react-router';
import { UNSAVED_CHANGES } from '@arca/contracts';
import { isDirty } from './is-dirty';

/** Routes that never ask: leaving for them discards silently. */
const SKIPPED_PREFIXES = ['/login', '/auth', '/logout', '/500'];

export function shouldAskBeforeLeaving(current: Location, next: Location): boolean {
  if (SKIPPED_PREFIXES.some((p) => next.pathname === p || next.pathname.startsWith(`${p}/`))) return false;
  // moving within the same page (same prefix) keeps the form
  return !next.pathname.startsWith(current.pathname);
}

export interface UnsavedChangesOptions<T> {
  initial: T;
  current: T;
  /** Called when the user confirms a reset. */
  onReset?: () => void;
  /** Switch the guard off (for example during onboarding). */
  enabled?: boolean;
}

export interface UnsavedChanges {
  dirty: boolean;
  /** Asks before resetting when there are changes; resets at once otherwise. */
  requestReset: () => void;
  /** The confirmation dialog; render it once in the page. */
  dialog: ReactNode;
}

/**
 * Asks before leaving a page with unsaved changes, and before a reset: the 'Discard Changes'
 * dialog with the leave or reset message and Discard/Reset and Cancel buttons. A form that leaves
 * after saving switches the guard off (`enabled`) and navigates from an effect declared after
 * this hook, so that the guard has seen the change first (a timer may run before it has).
 */
export function useUnsavedChanges<T>({
  initial,
  current,
  onReset,
  enabled = true,
}: UnsavedChangesOptions<T>): UnsavedChanges {
  const dirty = enabled && isDirty(initial, current);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty && shouldAskBeforeLeaving(currentLocation, nextLocation),
  );
  const [resetAsked, setResetAsked] = useState(false);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const requestReset = useCallback(() => {
    if (dirty) setResetAsked(true);
    else onReset?.();
  }, [dirty, onReset]);

  const leaving = blocker.state === 'blocked';
  const open = leaving || resetAsked;
  const cancel = () => {
    if (leaving) blocker.reset();
    setResetAsked(false);
  };
  const confirm = () => {
    if (leaving) blocker.proceed();
    else {
      setResetAsked(false);
      onReset?.();
    }
  };

  const dialog = (
    <Modal
      open={open}
      title={UNSAVED_CHANGES.title}
      onCancel={cancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={cancel}>
          {UNSAVED_CHANGES.cancel}
        </Button>,
        <Button key="confirm" type="primary" danger onClick={confirm} autoFocus>
          {leaving ? UNSAVED_CHANGES.discard : UNSAVED_CHANGES.reset}
        </Button>,
      ]}
    >
      <p>{leaving ? UNSAVED_CHANGES.message : UNSAVED_CHANGES.resetMessage}</p>
    </Modal>
  );
  return { dirty, requestReset, dialog };
}
