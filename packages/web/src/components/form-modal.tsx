import { Form, Modal, type FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { useServerErrors } from '../lib/server-errors';
import { ErrorList } from './error-list';

export interface FormModalProps<T> {
  open: boolean;
  title: ReactNode;
  okText: string;
  form: FormInstance<T>;
  /** Saves the values; the modal closes when it resolves, and shows the server's messages when it rejects. */
  onSubmit: (values: T) => Promise<unknown>;
  onClose: () => void;
  /** The text the spec gives for this action's failure, when the server says nothing more useful. */
  failureText?: string;
  width?: number;
  danger?: boolean;
  /** Keeps OK disabled (a required value missing, say). */
  okDisabled?: boolean;
  /** Shown above the form (what the dialog will do). */
  intro?: ReactNode;
  /** Shown below the form (actions that are not part of the save). */
  after?: ReactNode;
  initialValues?: Partial<T>;
  children: ReactNode;
}

/**
 * A modal with a form: OK submits it, the call runs with a busy button, a refusal shows the
 * server's messages as a list above the form and keeps the modal open, success closes it. The
 * one way the console's create and edit dialogs handle a save.
 */
export function FormModal<T>(props: FormModalProps<T>) {
  const { open, title, okText, form, onSubmit, onClose, failureText, width, danger, okDisabled } = props;
  const { intro, after, initialValues, children } = props;
  const { errors, clear, capture } = useServerErrors(failureText);
  const [busy, setBusy] = useState(false);
  const close = () => {
    clear();
    onClose();
  };
  const finish = (values: T) => {
    clear();
    setBusy(true);
    onSubmit(values)
      .then(close, (error: unknown) => capture(error, form as FormInstance))
      .finally(() => setBusy(false));
  };
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger, disabled: okDisabled }}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={close}
      destroyOnHidden
      forceRender
      width={width}
    >
      {intro}
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<T> form={form} layout="vertical" onFinish={finish} initialValues={initialValues}>
        {children}
      </Form>
      {after}
    </Modal>
  );
}
