import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Row,
  Select,
  Switch,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { OIDC_MESSAGES, type SamlProvider, type SamlProviderBody } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { RowActions } from '../../../components/row-actions';
import { enabledColumn, providerNameColumn } from './provider-columns';
import { useSamlActions, useSamlProviders } from '../api/saml';
import { useKeyPairs } from '../../keys';
import { ListEmpty } from '../../../components/list-empty';
import { REQUIRED } from '../../../lib/schema-rules';

/** SAML 2.0 identity providers: their metadata in, Arca's service provider details out. */
export function SamlTab() {
  const providers = useSamlProviders();
  const { remove } = useSamlActions();
  const [editing, setEditing] = useState<SamlProvider | 'new'>();
  return (
    <Card
      title="SAML identity providers"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          New SAML Provider
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        Import the identity provider&apos;s metadata (ADFS, Okta, Entra ID, Keycloak, Shibboleth), then give it
        Arca&apos;s metadata URL shown below. Assertions must be signed; the login page offers a button for each enabled
        provider.
      </Typography.Paragraph>
      <Table<SamlProvider>
        rowKey="name"
        loading={providers.isPending}
        dataSource={providers.data ?? []}
        pagination={false}
        expandable={{
          expandedRowRender: (row) => (
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'idp', label: 'Identity provider', children: row.idpEntityId },
                { key: 'sso', label: 'Sign-in service', children: row.ssoUrl },
                { key: 'slo', label: 'Logout service', children: row.logoutUrl || '—' },
                {
                  key: 'sp',
                  label: 'Arca metadata',
                  children: (
                    <Typography.Link href={row.spMetadataUrl} target="_blank" copyable>
                      {row.spMetadataUrl}
                    </Typography.Link>
                  ),
                },
                {
                  key: 'acs',
                  label: 'Assertion consumer service',
                  children: <Typography.Text copyable>{row.acsUrl}</Typography.Text>,
                },
              ]}
            />
          ),
        }}
        locale={{
          emptyText: (
            <ListEmpty query={providers} what="The SAML providers">
              <Empty description="No SAML identity provider yet. Add one with its metadata URL or file." />
            </ListEmpty>
          ),
        }}
        columns={[
          providerNameColumn,
          { title: 'Identity provider', dataIndex: 'idpEntityId' },
          { title: 'Certificates', dataIndex: 'certificates', width: 120 },
          enabledColumn,
          {
            title: 'Actions',
            key: 'actions',
            width: 110,
            render: (_: unknown, row) => (
              <RowActions
                what={`SAML provider ${row.name}`}
                onEdit={() => setEditing(row)}
                remove={{
                  run: () => remove.mutateAsync(row.name),
                  consequence: 'Its users can no longer sign in through it; their tokens keep working until revoked.',
                  deleted: `SAML provider ${row.name} was deleted`,
                }}
              />
            ),
          },
        ]}
      />
      {editing && <SamlProviderModal editing={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}

function SamlProviderModal({ editing, onClose }: { editing: SamlProvider | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<SamlProviderBody>();
  const { save } = useSamlActions();
  const keyPairs = useKeyPairs();
  const existing = editing === 'new' ? undefined : editing;
  return (
    <FormModal<SamlProviderBody>
      open
      title={existing ? `Edit SAML Provider ${existing.name}` : 'New SAML Provider'}
      okText={existing ? 'Save' : 'Create'}
      form={form}
      width={760}
      failureText="The SAML provider was not saved"
      initialValues={
        existing ?? {
          name: '',
          displayName: '',
          enabled: true,
          metadataUrl: '',
          metadataXml: '',
          usernameAttribute: '',
          emailAttribute: 'email',
          groupsAttribute: 'groups',
          groupMapping: '',
          wantResponseSigned: false,
          signingKeyPair: '',
          autoCreateUser: true,
        }
      }
      onClose={onClose}
      onSubmit={async (values) => {
        const saved = await save.mutateAsync({ body: values, replaces: existing?.name });
        notifySuccess(`SAML provider ${saved.name} was saved`);
      }}
    >
      <Row gutter={16}>
        <Col span={9}>
          <Form.Item
            label="Name"
            name="name"
            rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: OIDC_MESSAGES.nameInvalid }]}
          >
            <Input placeholder="adfs" autoFocus={!existing} />
          </Form.Item>
        </Col>
        <Col span={9}>
          <Form.Item label="Button text" name="displayName" rules={[REQUIRED]}>
            <Input placeholder="Acme SSO" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item label="Enabled" name="enabled" valuePropName="checked" htmlFor="saml-enabled">
            <Switch id="saml-enabled" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="Metadata URL" name="metadataUrl" extra="Read again at each save. Or paste the XML below.">
        <Input placeholder="https://idp.acme.com/FederationMetadata/2007-06/FederationMetadata.xml" />
      </Form.Item>
      <Form.Item label="Metadata XML" name="metadataXml">
        <Input.TextArea rows={4} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
      </Form.Item>
      <Upload
        accept=".xml"
        showUploadList={false}
        beforeUpload={(file) => {
          void file.text().then((text) => form.setFieldValue('metadataXml', text));
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} style={{ marginBottom: 16 }}>
          Read a metadata file
        </Button>
      </Upload>
      <Row gutter={16}>
        <Col span={8}>
          <Form.Item label="User name attribute" name="usernameAttribute" extra="Empty: the NameID">
            <Input />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item label="E-mail attribute" name="emailAttribute">
            <Input />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item label="Groups attribute" name="groupsAttribute">
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="Group mapping"
        name="groupMapping"
        extra="One per line: provider-group = arca-group. The user joins or leaves these Arca groups at each sign-in."
      >
        <Input.TextArea rows={3} spellCheck={false} style={{ fontFamily: 'monospace', fontSize: 12 }} />
      </Form.Item>
      <Form.Item name="wantResponseSigned" valuePropName="checked" style={{ marginBottom: 4 }}>
        <Checkbox>The whole response must be signed too (assertions always must be)</Checkbox>
      </Form.Item>
      <Form.Item
        label="Sign authentication requests with"
        name="signingKeyPair"
        extra="An RSA key pair of Keys Management. Arca's metadata then carries its certificate, so that the identity provider can check that requests come from Arca."
      >
        <Select
          loading={keyPairs.isPending}
          options={[
            { value: '', label: 'Do not sign' },
            ...(keyPairs.data ?? [])
              .filter((pair) => pair.pairType === 'RSA')
              .map((pair) => ({ value: pair.pairName, label: `${pair.pairName} (${pair.algorithm})` })),
          ]}
        />
      </Form.Item>
      <Form.Item name="autoCreateUser" valuePropName="checked">
        <Checkbox>Create Arca users at their first sign-in</Checkbox>
      </Form.Item>
    </FormModal>
  );
}
