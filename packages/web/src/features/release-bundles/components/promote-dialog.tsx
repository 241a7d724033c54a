import { Alert, Checkbox, Form, Modal, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useEnvironments, usePromote } from '../api/release-bundles';

export interface PromoteDialogProps {
  name: string;
  version: string;
  /** The environments the version reached already. */
  reached: readonly string[];
  open: boolean;
  onClose: () => void;
}

interface Values {
  environment?: string;
  operation: 'copy' | 'move';
  overwrite: boolean;
}

/**
 * Promotes a version to an environment: its artifacts copied (or moved from the environment it
 * is in) into the environment's repositories. Confirmed here; a refusal stays in the dialog.
 */
export function PromoteDialog({ name, version, reached, open, onClose }: PromoteDialogProps) {
  const environments = useEnvironments();
  const promote = usePromote(name, version);
  const [form] = Form.useForm<Values>();
  const [errors, setErrors] = useState<string[]>([]);
  const chosen = Form.useWatch('environment', form);
  const target = environments.data?.find((e) => e.name === chosen);
  const next = environments.data?.find((e) => !reached.includes(e.name));
  // the first environment not reached yet, once the environments are known
  useEffect(() => {
    if (open && next && !form.getFieldValue('environment')) form.setFieldValue('environment', next.name);
  }, [open, next, form]);
  const submit = async () => {
    const values = await form.validateFields();
    setErrors([]);
    try {
      await promote.mutateAsync({
        environment: values.environment!,
        operation: values.operation,
        overwrite_existing_artifacts: values.overwrite,
      });
      notifySuccess(`${name} ${version} was promoted to ${values.environment}.`);
      onClose();
    } catch (error) {
      setErrors(error instanceof ApiError ? error.messages : [String(error)]);
    }
  };
  return (
    <Modal
      title={`Promote ${name} ${version}`}
      open={open}
      onCancel={onClose}
      onOk={() => void submit()}
      okText="Promote"
      confirmLoading={promote.isPending}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ environment: next?.name, operation: 'copy', overwrite: false }}
        preserve={false}
      >
        <Form.Item
          label="Environment"
          name="environment"
          rules={[{ required: true, message: 'Choose the environment to promote to.' }]}
        >
          <Select
            loading={environments.isPending}
            aria-label="Environment"
            options={(environments.data ?? []).map((e) => ({
              value: e.name,
              label: `${e.name}${reached.includes(e.name) ? ' (promoted before)' : ''}`,
            }))}
          />
        </Form.Item>
        {target &&
          (target.repositories.length ? (
            <Typography.Paragraph type="secondary">
              Its artifacts go to {target.repositories.join(', ')}, each to the repository of its package type.
            </Typography.Paragraph>
          ) : (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              title={`${target.name} has no repositories yet.`}
              description={
                <span>
                  An administrator assigns them under <Link to="/admin/environments">Environments</Link>.
                </span>
              }
            />
          ))}
        <Form.Item label="How" name="operation">
          <Radio.Group>
            <Space direction="vertical">
              <Radio value="copy">Copy: the artifacts stay where earlier promotions put them too</Radio>
              <Radio value="move">Move: the copies of the previous promotion are taken away</Radio>
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="overwrite" valuePropName="checked">
          <Checkbox>Overwrite other content at the same paths</Checkbox>
        </Form.Item>
      </Form>
      <ErrorList messages={errors} />
    </Modal>
  );
}
