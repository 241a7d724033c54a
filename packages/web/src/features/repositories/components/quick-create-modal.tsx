import { Alert, Form, Input, Modal, Select, Typography } from 'antd';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useQuickCreate } from '../api/quick-create';
import { useServerErrors } from '../../../lib/server-errors';
import { packageTypeOptions, packageTypeSearch } from '../../../lib/package-type-options';

interface QuickForm {
  packageType: string;
  prefix: string;
  remoteUrl: string;
}

/** Quick Repository Creation: one package type → a local, a remote and a virtual repository. */
export function QuickCreateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<QuickForm>();
  const create = useQuickCreate();
  const { errors, clear, capture } = useServerErrors();
  const prefix = Form.useWatch('prefix', form) || 'prefix';
  const close = () => {
    form.resetFields();
    clear();
    onClose();
  };
  const submit = (values: QuickForm) => {
    clear();
    create.mutate(values, {
      onSuccess: (repos) => {
        notifySuccess(`Created ${repos.map((r) => r.key).join(', ')}`);
        close();
      },
      onError: (error) => capture(error),
    });
  };
  return (
    <Modal
      open={open}
      title="Quick Repository Creation"
      okText="Create"
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      onCancel={close}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        Creates <Typography.Text code>{prefix}-local</Typography.Text>,{' '}
        <Typography.Text code>{prefix}-remote</Typography.Text> and the virtual{' '}
        <Typography.Text code>{prefix}</Typography.Text> that serves both and deploys to the local one.
      </Typography.Paragraph>
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<QuickForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ packageType: 'generic', prefix: '', remoteUrl: '' }}
      >
        <Form.Item
          label="Package type"
          name="packageType"
          rules={[{ required: true, message: 'This field is mandatory.' }]}
        >
          <Select showSearch={packageTypeSearch} options={packageTypeOptions()} />
        </Form.Item>
        <Form.Item
          label="Repository key prefix"
          name="prefix"
          rules={[
            { required: true, message: 'This field is mandatory.' },
            {
              pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
              message: 'Letters, digits, dashes, underscores and periods only.',
            },
          ]}
        >
          <Input placeholder="e.g. npm" autoFocus />
        </Form.Item>
        <Form.Item
          label="Upstream URL of the remote repository"
          name="remoteUrl"
          extra="Leave empty for the package type's public registry; without one, no remote repository is created."
        >
          <Input placeholder="https://…" />
        </Form.Item>
      </Form>
      {create.isError && !errors.length && <Alert type="error" title="Creation failed" />}
    </Modal>
  );
}
