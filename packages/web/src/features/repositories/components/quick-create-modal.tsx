import { Form, Input, Select, Typography } from 'antd';
import { quickCreateBodySchema, type QuickCreateBody } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { packageTypeOptions, packageTypeSearch } from '../../../lib/package-type-options';
import { schemaField } from '../../../lib/schema-rules';
import { useQuickCreate } from '../api/quick-create';

const { shape } = quickCreateBodySchema;

/** Quick Repository Creation: one package type → a local, a remote and a virtual repository. */
export function QuickCreateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<QuickCreateBody>();
  const create = useQuickCreate();
  const prefix = Form.useWatch('prefix', form) || 'prefix';
  return (
    <FormModal<QuickCreateBody>
      open={open}
      title="Quick Repository Creation"
      okText="Create"
      form={form}
      failureText="Creation failed"
      initialValues={{ packageType: 'generic', prefix: '', remoteUrl: '' }}
      onSubmit={async (values) => {
        const repos = await create.mutateAsync(values);
        notifySuccess(`Created ${repos.map((r) => r.key).join(', ')}`);
        form.resetFields();
      }}
      onClose={onClose}
      intro={
        <Typography.Paragraph type="secondary">
          Creates <Typography.Text code>{prefix}-local</Typography.Text>,{' '}
          <Typography.Text code>{prefix}-remote</Typography.Text> and the virtual{' '}
          <Typography.Text code>{prefix}</Typography.Text> that serves both and deploys to the local one.
        </Typography.Paragraph>
      }
    >
      <Form.Item label="Package type" name="packageType" {...schemaField(shape.packageType)}>
        <Select showSearch={packageTypeSearch} options={packageTypeOptions()} />
      </Form.Item>
      <Form.Item label="Repository key prefix" name="prefix" {...schemaField(shape.prefix)}>
        <Input placeholder="e.g. npm" autoFocus />
      </Form.Item>
      <Form.Item
        label="Upstream URL of the remote repository"
        name="remoteUrl"
        extra="Leave empty for the package type's public registry; without one, no remote repository is created."
        {...schemaField(shape.remoteUrl)}
      >
        <Input placeholder="https://…" />
      </Form.Item>
    </FormModal>
  );
}
