import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Checkbox, Empty, Form, Input, Space, Table, Typography } from 'antd';
import { ARTIFACT_MESSAGES, PROPERTY_KEY_PATTERN } from '@arca/contracts';
import { ErrorList } from '../../../components/error-list';
import { useDeleteProperty } from '../api/delete-property';
import { useProperties } from '../api/get-properties';
import { useSetProperty } from '../api/set-property';
import { useServerErrors } from '../../../lib/server-errors';
import { runSafely } from '../../../api/client';
import { REQUIRED, REQUIRED_TEXT } from '../../../lib/schema-rules';

/** Properties of an item: list, add (comma-separated values, optionally recursive), delete. */
export function PropertiesTab({
  repoKey,
  path,
  folder,
  readOnly,
}: {
  repoKey: string;
  path: string;
  folder: boolean;
  readOnly: boolean;
}) {
  const properties = useProperties(repoKey, path);
  const set = useSetProperty();
  const remove = useDeleteProperty();
  const { modal } = App.useApp();
  const [form] = Form.useForm<{ key: string; values: string; recursive: boolean }>();
  const { errors, clear, capture } = useServerErrors();
  const rows = Object.entries(properties.data ?? {}).map(([key, values]) => ({ key, values }));

  const add = (v: { key: string; values: string; recursive: boolean }) => {
    clear();
    const values = v.values
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    set.mutate(
      { repoKey, path, key: v.key.trim(), values, recursive: Boolean(v.recursive) },
      {
        onSuccess: () => form.resetFields(),
        onError: (e) => capture(e),
      },
    );
  };

  return (
    <>
      {!readOnly && (
        <Form
          form={form}
          layout="inline"
          onFinish={add}
          style={{ marginBottom: 16, rowGap: 8 }}
          initialValues={{ key: '', values: '', recursive: false }}
        >
          <Form.Item
            name="key"
            rules={[REQUIRED, { pattern: PROPERTY_KEY_PATTERN, message: ARTIFACT_MESSAGES.propertyKey }]}
          >
            <Input placeholder="Name" aria-label="Property name" />
          </Form.Item>
          <Form.Item name="values" rules={[REQUIRED_TEXT]}>
            <Input
              placeholder="Value (comma-separated for several)"
              aria-label="Property value"
              style={{ width: 260 }}
            />
          </Form.Item>
          {folder && (
            <Form.Item name="recursive" valuePropName="checked">
              <Checkbox>Recursive</Checkbox>
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={set.isPending}>
            Add
          </Button>
        </Form>
      )}
      <ErrorList messages={errors} style={{ marginBottom: 12 }} />
      <Table
        rowKey="key"
        size="small"
        loading={properties.isPending}
        dataSource={rows}
        pagination={false}
        locale={{
          emptyText: (
            <Empty
              description={
                readOnly ? 'No properties.' : 'No properties yet. Add one above: builds and promotion tools read them.'
              }
            />
          ),
        }}
        columns={[
          { title: 'Name', dataIndex: 'key', render: (k: string) => <Typography.Text strong>{k}</Typography.Text> },
          { title: 'Values', dataIndex: 'values', render: (v: string[]) => v.join(', ') },
          ...(readOnly
            ? []
            : [
                {
                  title: '',
                  key: 'actions',
                  width: 60,
                  render: (_: unknown, row: { key: string }) => (
                    <Button
                      type="text"
                      danger
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`Delete property ${row.key}`}
                      onClick={() =>
                        modal.confirm({
                          title: `Delete property ${row.key}?`,
                          okText: 'Delete',
                          okButtonProps: { danger: true },
                          onOk: () => runSafely(() => remove.mutateAsync({ repoKey, path, key: row.key })),
                        })
                      }
                    />
                  ),
                },
              ]),
        ]}
      />
      <Space />
    </>
  );
}
