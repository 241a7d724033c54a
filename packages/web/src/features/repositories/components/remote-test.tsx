import { ApiOutlined } from '@ant-design/icons';
import { Alert, Button, Form, type FormInstance } from 'antd';
import type { RepositoryConfigInput } from '@arca/contracts';
import { messagesOf } from '../../../lib/server-errors';
import { useTestRemote } from '../api/remote';

type TestedFields = Pick<
  RepositoryConfigInput,
  'packageType' | 'url' | 'username' | 'password' | 'proxy' | 'clientTlsCertificate' | 'socketTimeoutMillis'
>;

/**
 * The remote form's Test: asks the upstream with the settings as typed (the stored password when
 * the field is left empty) and shows how it answered; nothing is saved.
 */
export function RemoteTest<T extends TestedFields>({ form, repoKey }: { form: FormInstance<T>; repoKey?: string }) {
  const test = useTestRemote();
  const run = () => {
    const v = form.getFieldsValue(true) as TestedFields;
    test.mutate({
      ...(repoKey ? { key: repoKey } : {}),
      packageType: v.packageType,
      url: v.url,
      username: v.username,
      ...(v.password ? { password: v.password } : {}),
      proxy: v.proxy,
      clientTlsCertificate: v.clientTlsCertificate,
      socketTimeoutMillis: v.socketTimeoutMillis,
    });
  };
  return (
    <Form.Item>
      <Button icon={<ApiOutlined />} onClick={run} loading={test.isPending}>
        Test
      </Button>
      {test.data && (
        <Alert
          role="status"
          style={{ marginTop: 12 }}
          type={test.data.ok ? 'success' : 'error'}
          showIcon
          title={test.data.message}
        />
      )}
      {test.isError && (
        <Alert role="status" style={{ marginTop: 12 }} type="error" showIcon title={messagesOf(test.error)[0]} />
      )}
    </Form.Item>
  );
}
