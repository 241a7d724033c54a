import { DeleteOutlined, EditOutlined, ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Space, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LDAP_STRATEGY_LABELS, type LdapGroupSetting, type LdapSetting } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { LoadError } from '../../../components/load-error';
import { PageHeader } from '../../../components/page-header';
import { StatusTag } from '../../../components/status-tag';
import { useLdapActions, useLdapGroupSettings, useLdapSettings } from '../api/ldap';
import { GroupSettingModal, ImportGroupsModal } from '../components/ldap-groups-modals';
import { LdapSettingModal } from '../components/ldap-setting-modal';
import { OidcTab } from '../components/oidc-tab';
import { SamlTab } from '../components/saml-tab';
import { HttpSsoTab } from '../components/http-sso-tab';

const BASE = '/admin/security/authentication-providers';
export const PROVIDER_TABS = ['ldap', 'oidc', 'saml', 'http-sso'] as const;

/** Authentication Providers: the directories and identity providers users sign in through. */
export function AuthenticationProvidersPage() {
  const { provider } = useParams();
  const navigate = useNavigate();
  const active = (PROVIDER_TABS as readonly string[]).includes(provider ?? '') ? provider! : PROVIDER_TABS[0];
  return (
    <>
      <PageHeader
        title="Authentication Providers"
        description="Let people sign in with the identities they have: an LDAP or Active Directory server with its groups, an OpenID Connect provider or a SAML identity provider."
      />
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(`${BASE}/${key}`)}
        items={[
          { key: 'ldap', label: 'LDAP', children: <LdapTab /> },
          { key: 'oidc', label: 'OpenID Connect', children: <OidcTab /> },
          { key: 'saml', label: 'SAML', children: <SamlTab /> },
          { key: 'http-sso', label: 'HTTP SSO', children: <HttpSsoTab /> },
        ]}
      />
    </>
  );
}

function LdapTab() {
  const settings = useLdapSettings();
  const groups = useLdapGroupSettings();
  const actions = useLdapActions();
  const { modal } = App.useApp();
  const [editing, setEditing] = useState<LdapSetting | 'new'>();
  const [editingGroups, setEditingGroups] = useState<LdapGroupSetting | 'new'>();
  const [importing, setImporting] = useState<LdapGroupSetting>();
  const confirmDelete = (what: string, run: () => Promise<void>, content: string) =>
    modal.confirm({
      title: `Delete ${what}?`,
      content,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () => runSafely(run),
    });
  return (
    <Space direction="vertical" size={20} style={{ width: '100%' }}>
      <Card
        title="LDAP settings"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            New LDAP Setting
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          A name Arca does not know is looked up in each enabled directory, in this order. Directory users sign in to
          the console and with their directory password in npm, pip, Maven and Docker; the password is never stored
          here.
        </Typography.Paragraph>
        <Table<LdapSetting>
          rowKey="key"
          loading={settings.isPending}
          dataSource={settings.data ?? []}
          pagination={false}
          locale={{
            emptyText: settings.isError ? (
              <LoadError what="The LDAP settings" error={settings.error} onRetry={() => void settings.refetch()} />
            ) : (
              <Empty description="No directory yet. Add your LDAP or Active Directory server, then test it with a user." />
            ),
          }}
          columns={[
            { title: 'Name', dataIndex: 'key', render: (k: string) => <Typography.Text strong>{k}</Typography.Text> },
            {
              title: 'URL',
              dataIndex: 'ldapUrl',
              render: (u: string, row) => (
                <>
                  {u}
                  {row.startTls && <Tag style={{ marginLeft: 8 }}>StartTLS</Tag>}
                </>
              ),
            },
            {
              title: 'Users',
              key: 'lookup',
              render: (_: unknown, row) => (
                <Typography.Text code>{row.searchFilter || row.userDnPattern}</Typography.Text>
              ),
            },
            {
              title: 'Creates users',
              dataIndex: 'autoCreateUser',
              width: 130,
              render: (on: boolean) => (on ? 'Yes' : 'No'),
            },
            {
              title: 'State',
              dataIndex: 'enabled',
              width: 110,
              render: (on: boolean) => (
                <StatusTag tone={on ? 'success' : 'neutral'}>{on ? 'Enabled' : 'Disabled'}</StatusTag>
              ),
            },
            {
              title: 'Actions',
              key: 'actions',
              width: 110,
              render: (_: unknown, row) => (
                <Space size={0}>
                  <Tooltip title="Edit">
                    <Button
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={`Edit ${row.key}`}
                      onClick={() => setEditing(row)}
                    />
                  </Tooltip>
                  <Tooltip title="Delete">
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${row.key}`}
                      onClick={() =>
                        confirmDelete(
                          `LDAP setting ${row.key}`,
                          async () => {
                            await actions.remove.mutateAsync(row.key);
                            notifySuccess(`LDAP setting ${row.key} was deleted`);
                          },
                          'Its users can no longer sign in with their directory password; their tokens keep working until revoked.',
                        )
                      }
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card
        title="Group settings"
        extra={
          <Button icon={<PlusOutlined />} disabled={!settings.data?.length} onClick={() => setEditingGroups('new')}>
            New Group Setting
          </Button>
        }
      >
        <Table<LdapGroupSetting>
          rowKey="name"
          loading={groups.isPending}
          dataSource={groups.data ?? []}
          pagination={false}
          locale={{
            emptyText: groups.isError ? (
              <LoadError what="The group settings" error={groups.error} onRetry={() => void groups.refetch()} />
            ) : (
              <Empty description="No group settings. Add one to import directory groups and give them permissions." />
            ),
          }}
          columns={[
            { title: 'Name', dataIndex: 'name', render: (n: string) => <Typography.Text strong>{n}</Typography.Text> },
            { title: 'LDAP setting', dataIndex: 'ldapSettingKey' },
            {
              title: 'Strategy',
              dataIndex: 'strategy',
              render: (s: keyof typeof LDAP_STRATEGY_LABELS) => LDAP_STRATEGY_LABELS[s].split(' — ')[0],
            },
            { title: 'Group base DN', dataIndex: 'groupBaseDn', render: (dn: string) => dn || '—' },
            {
              title: 'Actions',
              key: 'actions',
              width: 220,
              render: (_: unknown, row) => (
                <Space size={0}>
                  <Button type="link" icon={<ImportOutlined />} onClick={() => setImporting(row)}>
                    Import Groups
                  </Button>
                  <Tooltip title="Edit">
                    <Button
                      type="text"
                      icon={<EditOutlined />}
                      aria-label={`Edit ${row.name}`}
                      onClick={() => setEditingGroups(row)}
                    />
                  </Tooltip>
                  <Tooltip title="Delete">
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`Delete ${row.name}`}
                      onClick={() =>
                        confirmDelete(
                          `group setting ${row.name}`,
                          async () => {
                            await actions.removeGroups.mutateAsync(row.name);
                            notifySuccess(`Group setting ${row.name} was deleted`);
                          },
                          'Imported groups stay, but their members no longer follow the directory.',
                        )
                      }
                    />
                  </Tooltip>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {editing && <LdapSettingModal editing={editing} onClose={() => setEditing(undefined)} />}
      {editingGroups && settings.data && (
        <GroupSettingModal
          editing={editingGroups}
          settings={settings.data}
          onClose={() => setEditingGroups(undefined)}
        />
      )}
      {importing && <ImportGroupsModal setting={importing} onClose={() => setImporting(undefined)} />}
    </Space>
  );
}
