import { Space, Typography } from 'antd';
import { StatusTag } from '../../../components/status-tag';

/** The name column of an identity provider's table: its name and the login page's button text. */
export const providerNameColumn = {
  title: 'Name',
  dataIndex: 'name',
  render: (name: string, row: { displayName: string }) => (
    <Space direction="vertical" size={0}>
      <Typography.Text strong>{name}</Typography.Text>
      <Typography.Text type="secondary">Sign in with {row.displayName}</Typography.Text>
    </Space>
  ),
};

/** The state column of a provider or directory: enabled or disabled. */
export const enabledColumn = {
  title: 'State',
  dataIndex: 'enabled',
  width: 110,
  render: (on: boolean) => <StatusTag tone={on ? 'success' : 'neutral'}>{on ? 'Enabled' : 'Disabled'}</StatusTag>,
};
