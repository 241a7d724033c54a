import { Form, Input } from 'antd';
import { PASSWORD_FLOW_MESSAGES, changePasswordBodySchema } from '@arca/contracts';
import { schemaField } from '../../../lib/schema-rules';

const { newPassword1 } = changePasswordBodySchema.shape;

/** New password twice; the second must match. The length rule is the server's (security settings). */
export function NewPasswordFields({ autoFocus = false }: { autoFocus?: boolean }) {
  return (
    <>
      <Form.Item label="New password" name="newPassword1" {...schemaField(newPassword1)}>
        <Input.Password autoComplete="new-password" autoFocus={autoFocus} size="large" />
      </Form.Item>
      <Form.Item
        label="Confirm new password"
        name="newPassword2"
        dependencies={['newPassword1']}
        {...schemaField(newPassword1, ({ getFieldValue }) => ({
          validator: (_, value: string) =>
            !value || value === getFieldValue('newPassword1')
              ? Promise.resolve()
              : Promise.reject(new Error(PASSWORD_FLOW_MESSAGES.mismatch)),
        }))}
      >
        <Input.Password autoComplete="new-password" size="large" />
      </Form.Item>
    </>
  );
}
