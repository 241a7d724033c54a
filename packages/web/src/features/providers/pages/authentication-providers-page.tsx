import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { LDAP_STRATEGY_LABELS, type LdapGroupSetting, type LdapSetting } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { RowActions } from '../../../components/row-actions';
import { enabledColumn } from '../components/provider-columns';
import { useLdapActions, useLdapGroupSettings, useLdapSettings } from '../api/ldap';
import { GroupSettingModal, ImportGroupsModal } from '../components/ldap-groups-modals';
import { LdapSettingModal } from '../components/ldap-setting-modal';
import { OidcTab } from '../components/oidc-tab';
import { SamlTab } from '../components/saml-tab';
import { HttpSsoTab } from '../components/http-sso-tab';
import { ListEmpty } from '../../../components/list-empty';

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
  const [editing, setEditing] = useState<LdapSetting | 'new'>();
  const [editingGroups, setEditingGroups] = useState<LdapGroupSetting | 'new'>();
  const [importing, setImporting] = useState<LdapGroupSetting>();
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
            emptyText: (
              <ListEmpty query={settings} what="The LDAP settings">
                <Empty description="No directory yet. Add your LDAP or Active Directory server, then test it with a user." />
              </ListEmpty>
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
            enabledColumn,
            {
              title: 'Actions',
              key: 'actions',
              width: 110,
              render: (_: unknown, row) => (
                <RowActions
                  what={`LDAP setting ${row.key}`}
                  onEdit={() => setEditing(row)}
                  remove={{
                    run: () => actions.remove.mutateAsync(row.key),
                    consequence:
                      'Its users can no longer sign in with their directory password; their tokens keep working until revoked.',
                    deleted: `LDAP setting ${row.key} was deleted`,
                  }}
                />
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
            emptyText: (
              <ListEmpty query={groups} what="The group settings">
                <Empty description="No group settings. Add one to import directory groups and give them permissions." />
              </ListEmpty>
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
                <RowActions
                  what={`group setting ${row.name}`}
                  onEdit={() => setEditingGroups(row)}
                  remove={{
                    run: () => actions.removeGroups.mutateAsync(row.name),
                    consequence: 'Imported groups stay, but their members no longer follow the directory.',
                    deleted: `Group setting ${row.name} was deleted`,
                  }}
                >
                  <Button type="link" icon={<ImportOutlined />} onClick={() => setImporting(row)}>
                    Import Groups
                  </Button>
                </RowActions>
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
