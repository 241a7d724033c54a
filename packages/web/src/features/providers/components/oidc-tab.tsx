import { PlusOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Col, Empty, Form, Input, Row, Select, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { OIDC_MESSAGES, type OidcProvider, type OidcProviderBody } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { RowActions } from '../../../components/row-actions';
import { enabledColumn, providerNameColumn } from './provider-columns';
import { useOidcActions, useOidcProviders, useSsoSettings } from '../api/oidc';
import { useSamlProviders } from '../api/saml';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

/** OpenID Connect providers, and the one the login page may send everyone to. */
export function OidcTab() {
  const providers = useOidcProviders();
  const settings = useSsoSettings();
  const actions = useOidcActions();
  const [editing, setEditing] = useState<OidcProvider | 'new'>();
  const saml = useSamlProviders();
  const enabled = [...(providers.data ?? []), ...(saml.data ?? [])].filter((p) => p.enabled);
  return (
    <Space direction="vertical" size={20} style={{ width: '100%' }}>
      <Card
        title="OpenID Connect providers"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            New Provider
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          Keycloak, Okta, Entra ID, Google, GitLab or any OpenID provider: the login page offers a button for each
          enabled one. Register the redirect URI shown here at the provider, as a confidential client.
        </Typography.Paragraph>
        <Table<OidcProvider>
          rowKey="name"
          loading={providers.isPending}
          dataSource={providers.data ?? []}
          pagination={false}
          locale={{
            emptyText: (
              <ListEmpty query={providers} what="The providers">
                <Empty description="No identity provider yet. Add your company's OpenID provider by its issuer URL." />
              </ListEmpty>
            ),
          }}
          columns={[
            providerNameColumn,
            { title: 'Issuer', dataIndex: 'issuerUrl' },
            {
              title: 'Redirect URI',
              dataIndex: 'redirectUri',
              render: (uri: string) => (
                <Typography.Text code copyable style={{ fontSize: 12 }}>
                  {uri}
                </Typography.Text>
              ),
            },
            enabledColumn,
            {
              title: 'Actions',
              key: 'actions',
              width: 110,
              render: (_: unknown, row) => (
                <RowActions
                  what={`provider ${row.name}`}
                  onEdit={() => setEditing(row)}
                  remove={{
                    run: () => actions.remove.mutateAsync(row.name),
                    consequence: 'Its users can no longer sign in through it; their tokens keep working until revoked.',
                    deleted: `Provider ${row.name} was deleted`,
                  }}
                />
              ),
            },
          ]}
        />
      </Card>
      <Card title="Sign-in page">
        <Typography.Paragraph type="secondary">
          With a provider chosen here, the login page sends everyone straight to it; administrators still reach the
          password form at <Typography.Text code>/ui/login?local=true</Typography.Text>.
        </Typography.Paragraph>
        <Space>
          <label htmlFor="auto-redirect">Send everyone to</label>
          <Select
            id="auto-redirect"
            style={{ width: 280 }}
            loading={settings.isPending}
            value={settings.data?.autoRedirectProvider ?? ''}
            options={[
              { value: '', label: 'No provider: show the login page' },
              ...enabled.map((p) => ({ value: p.name, label: p.displayName })),
            ]}
            onChange={(value: string) =>
              actions.saveSettings.mutate(
                { autoRedirectProvider: value },
                {
                  onSuccess: () =>
                    notifySuccess(
                      value ? `The login page sends everyone to ${value}` : 'The login page shows its form',
                    ),
                },
              )
            }
          />
        </Space>
      </Card>
      {editing && <OidcProviderModal editing={editing} onClose={() => setEditing(undefined)} />}
    </Space>
  );
}

function OidcProviderModal({ editing, onClose }: { editing: OidcProvider | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<OidcProviderBody>();
  const { save } = useOidcActions();
  const existing = editing === 'new' ? undefined : editing;
  return (
    <FormModal<OidcProviderBody>
      open
      title={existing ? `Edit Provider ${existing.name}` : 'New OpenID Connect Provider'}
      okText={existing ? 'Save' : 'Create'}
      form={form}
      width={760}
      failureText="The provider was not saved"
      initialValues={
        existing
          ? { ...existing, clientSecret: '' }
          : {
              name: '',
              displayName: '',
              enabled: true,
              issuerUrl: 'https://',
              clientId: '',
              scopes: 'openid profile email',
              usernameClaim: 'preferred_username',
              emailClaim: 'email',
              groupsClaim: 'groups',
              groupMapping: '',
              autoCreateUser: true,
            }
      }
      onClose={onClose}
      onSubmit={async ({ clientSecret, ...values }) => {
        const saved = await save.mutateAsync({
          body: { ...values, ...(clientSecret ? { clientSecret } : {}) },
          replaces: existing?.name,
        });
        notifySuccess(`Provider ${saved.name} was saved`);
      }}
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="Name"
            name="name"
            rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: OIDC_MESSAGES.nameInvalid }]}
            extra="Part of the redirect URI."
          >
            <Input placeholder="keycloak" autoFocus={!existing} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="Button text"
            name="displayName"
            rules={[REQUIRED]}
            extra="The login page says: Sign in with …"
          >
            <Input placeholder="Acme ID" />
          </Form.Item>
        </Col>
        <Col span={18}>
          <Form.Item
            label="Issuer URL"
            name="issuerUrl"
            rules={[REQUIRED]}
            extra="Its /.well-known/openid-configuration is read, e.g. https://keycloak.acme.com/realms/acme"
          >
            <Input />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item label="Enabled" name="enabled" valuePropName="checked" htmlFor="oidc-enabled">
            <Switch id="oidc-enabled" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="Client ID" name="clientId" rules={[REQUIRED]}>
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="Client secret"
            name="clientSecret"
            extra={existing?.clientSecretSet ? 'Stored; leave empty to keep it.' : undefined}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="Scopes" name="scopes">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="User name claim" name="usernameClaim">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="E-mail claim" name="emailClaim">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="Groups claim" name="groupsClaim">
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="Group mapping"
        name="groupMapping"
        extra="One per line: provider-group = arca-group. The user joins or leaves these Arca groups at each sign-in."
      >
        <Input.TextArea
          rows={4}
          spellCheck={false}
          style={{ fontFamily: 'monospace', fontSize: 12 }}
          placeholder="platform = platform-team"
        />
      </Form.Item>
      <Form.Item name="autoCreateUser" valuePropName="checked">
        <Checkbox>Create Arca users at their first sign-in</Checkbox>
      </Form.Item>
    </FormModal>
  );
}
