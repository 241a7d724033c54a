import { ApiOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Col, Divider, Flex, Form, Input, Row, Switch, Typography } from 'antd';
import { useState } from 'react';
import { LDAP_MESSAGES, type LdapSetting, type LdapSettingBody, type LdapTestResult } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { messagesOf } from '../../../lib/server-errors';
import { useLdapActions } from '../api/ldap';
import { REQUIRED } from '../../../lib/schema-rules';

type Values = Omit<LdapSettingBody, 'managerPassword'> & { managerPassword?: string };

const NEW: Values = {
  key: '',
  enabled: true,
  ldapUrl: 'ldap://',
  startTls: false,
  userDnPattern: '',
  searchFilter: '(uid={0})',
  searchBase: '',
  searchSubTree: true,
  managerDn: '',
  emailAttribute: 'mail',
  autoCreateUser: true,
};

/** The form of an LDAP setting, with "Test Connection" and "Test User" that say what failed. */
export function LdapSettingModal({ editing, onClose }: { editing: LdapSetting | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { save, test } = useLdapActions();
  const [result, setResult] = useState<LdapTestResult>();
  const [testUser, setTestUser] = useState({ username: '', password: '' });
  const existing = editing === 'new' ? undefined : editing;

  /** What the form holds, as the server takes it: an untouched password field keeps the stored one. */
  const body = (values: Values): LdapSettingBody => {
    const { managerPassword, ...rest } = values;
    return {
      ...rest,
      ...(managerPassword ? { managerPassword } : existing?.managerPasswordSet ? {} : { managerPassword: '' }),
    };
  };
  const runTest = async (withUser: boolean) => {
    setResult(undefined);
    const values = await form.validateFields();
    test.mutate(
      { setting: body(values), ...(withUser ? testUser : {}) },
      {
        onSuccess: setResult,
        onError: (error) => setResult({ ok: false, message: messagesOf(error).join(' '), user: null }),
      },
    );
  };

  return (
    <FormModal<Values>
      open
      title={existing ? `Edit LDAP Setting ${existing.key}` : 'New LDAP Setting'}
      okText={existing ? 'Save' : 'Create'}
      form={form}
      width={760}
      failureText="The LDAP setting was not saved"
      initialValues={existing ? { ...existing, managerPassword: '' } : NEW}
      onClose={onClose}
      onSubmit={async (values) => {
        const saved = await save.mutateAsync({ body: body(values), replaces: existing?.key });
        notifySuccess(`LDAP setting ${saved.key} was saved`);
      }}
      after={
        <>
          <Divider titlePlacement="start" plain>
            Test
          </Divider>
          <Row gutter={12} align="bottom">
            <Col flex="auto">
              <Typography.Text type="secondary">A user to sign in as (optional)</Typography.Text>
              <Flex gap={8} style={{ marginTop: 4 }}>
                <Input
                  aria-label="Test user name"
                  placeholder="User name"
                  prefix={<UserOutlined />}
                  value={testUser.username}
                  onChange={(e) => setTestUser({ ...testUser, username: e.target.value })}
                />
                <Input.Password
                  aria-label="Test user password"
                  placeholder="Password"
                  autoComplete="new-password"
                  value={testUser.password}
                  onChange={(e) => setTestUser({ ...testUser, password: e.target.value })}
                />
              </Flex>
            </Col>
            <Col>
              <Flex gap={8}>
                <Button icon={<ApiOutlined />} loading={test.isPending} onClick={() => void runTest(false)}>
                  Test Connection
                </Button>
                <Button disabled={!testUser.username} loading={test.isPending} onClick={() => void runTest(true)}>
                  Test User
                </Button>
              </Flex>
            </Col>
          </Row>
          {result && (
            <Alert
              style={{ marginTop: 12 }}
              type={result.ok ? 'success' : 'error'}
              showIcon
              message={result.message}
              description={
                result.user && (
                  <>
                    <div>E-mail: {result.user.email || '—'}</div>
                    <div>Groups: {result.user.groups.length ? result.user.groups.join(', ') : 'none found'}</div>
                  </>
                )
              }
            />
          )}
        </>
      }
    >
      <Row gutter={16}>
        <Col span={10}>
          <Form.Item
            label="Name"
            name="key"
            rules={[REQUIRED, { pattern: /^[A-Za-z][A-Za-z0-9._-]*$/, message: LDAP_MESSAGES.keyInvalid }]}
          >
            <Input placeholder="corp-ldap" autoFocus={!existing} />
          </Form.Item>
        </Col>
        <Col span={14}>
          <Form.Item label="Enabled" name="enabled" valuePropName="checked" htmlFor="ldap-enabled">
            <Switch id="ldap-enabled" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="LDAP URL"
        name="ldapUrl"
        rules={[REQUIRED, { pattern: /^ldaps?:\/\/[^/\s:]+(:\d{1,5})?(\/\S*)?$/i, message: LDAP_MESSAGES.urlInvalid }]}
        extra="The base DN may follow the host: ldap://ldap.acme.com:389/dc=acme,dc=com"
      >
        <Input />
      </Form.Item>
      <Form.Item name="startTls" valuePropName="checked">
        <Checkbox>Upgrade the connection with StartTLS (for ldap:// URLs)</Checkbox>
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="User DN pattern"
            name="userDnPattern"
            extra="e.g. uid={0},ou=people"
            rules={[{ validator: placeholder(LDAP_MESSAGES.patternWithoutPlaceholder) }]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="Search filter"
            name="searchFilter"
            extra="e.g. (uid={0}); Active Directory: (sAMAccountName={0})"
            rules={[{ validator: placeholder(LDAP_MESSAGES.filterWithoutPlaceholder) }]}
          >
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="Search base" name="searchBase" extra="Below the URL's base DN, e.g. ou=people">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label=" " name="searchSubTree" valuePropName="checked">
            <Checkbox>Search the whole subtree</Checkbox>
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="Manager DN" name="managerDn" extra="Empty: search anonymously">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="Manager password"
            name="managerPassword"
            extra={existing?.managerPasswordSet ? 'Stored; leave empty to keep it.' : undefined}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="E-mail attribute" name="emailAttribute">
            <Input />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label=" " name="autoCreateUser" valuePropName="checked">
            <Checkbox>Create Arca users at their first sign-in</Checkbox>
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
}

const placeholder = (message: string) => (_: unknown, value: string | undefined) =>
  !value || value.includes('{0}') ? Promise.resolve() : Promise.reject(new Error(message));
