import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { IDLE_CHECK_MS, isAnonymousName } from '@arca/contracts';
import { currentUserKey, getCurrentUser } from '../features/auth/api/get-current-user';

const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'touchstart', 'wheel'] as const;

type Listener = (idleMs: number) => void;
const listeners = new Set<Listener>();
/** When the user last did something, page-wide: mounting or unmounting a layout does not reset it. */
let lastActivity = Date.now();

function onActivity() {
  const now = Date.now();
  const idle = now - lastActivity;
  lastActivity = now;
  listeners.forEach((listener) => listener(idle));
}

if (typeof window !== 'undefined') {
  ACTIVITY_EVENTS.forEach((e) => window.addEventListener(e, onActivity, { passive: true, capture: true }));
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && onActivity());
}

/**
 * After 60 s without activity, the next activity checks the session again: an ended session goes to
 * login (logout and fromUnauthorized flags); a different user is handled by the root.
 */
export function useIdleSessionCheck(enabled: boolean) {
  const client = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    if (!enabled) return;
    const check: Listener = (idle) => {
      if (idle < IDLE_CHECK_MS) return;
      getCurrentUser({ background: true })
        .then((user) => {
          if (isAnonymousName(user.name) && !user.anonAccessEnabled) {
            // the login page's logout flag clears what is cached for the old session
            navigate('/login?logout=true&fromUnauthorized=true', { replace: true });
          } else {
            client.setQueryData(currentUserKey, user);
          }
        })
        .catch(() => undefined);
    };
    listeners.add(check);
    return () => {
      listeners.delete(check);
    };
  }, [enabled, client, navigate]);
}
