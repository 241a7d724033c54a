import { UnlockOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useGroups, useUsers } from '../../../lib/queries/directory';
import { USER_MESSAGES, userFormSchema, type ApiKeyState, type UserListItem } from '@arca/contracts';
import { apiFetch, runSafely } from '../../../api/client';
import { formatDateTime } from '../../../components/time';
import { useUnlockUsers } from '../api/unlock-users';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { EffectivePermissions } from '../../permissions';
import { useSaveUser } from '../api/save-user';
import { nameField } from '../../../lib/name-rules';
import { schemaField } from '../../../lib/schema-rules';
import { usersKeys } from '../api/keys';

interface Values {
  name: string;
  email: string;
  password: string;
  admin: boolean;
  disableUIAccess: boolean;
  mustChangePassword: boolean;
  groups: string[];
  invite: boolean;
}

/** Actions on an existing user that do not wait for Save: reset two factors, send an invitation. */
function UserActions({ user }: { user: UserListItem }) {
  const { modal } = App.useApp();
  const client = useQueryClient();
  const unlock = useUnlockUsers();
  const apiKey = useQuery({
    queryKey: usersKeys.apiKeyOf(user.name),
    queryFn: () => apiFetch<ApiKeyState>('ui/apiKey', { query: { user: user.name } }),
  });
  return (
    <Space wrap style={{ borderTop: '1px solid #f0f0f0', paddingTop: 12, width: '100%' }}>
      {user.lockedUntil && (
        <Alert
          type="warning"
          showIcon
          style={{ width: '100%' }}
          title={`Locked until ${formatDateTime(user.lockedUntil)} after too many failed sign-ins`}
          action={
            <Button
              size="small"
              icon={<UnlockOutlined />}
              loading={unlock.isPending}
              onClick={() =>
                void runSafely(async () => {
                  await unlock.mutateAsync([user.name]);
                  notifySuccess(`${user.name} was unlocked`);
                })
              }
            >
              Unlock
            </Button>
          }
        />
      )}
      {apiKey.data?.exists && (
        <Button
          danger
          onClick={() =>
            modal.confirm({
              title: `Revoke the API key of ${user.name}?`,
              content: 'Clients using it are refused from their next request. The user can generate a new one.',
              okText: 'Revoke',
              okButtonProps: { danger: true },
              onOk: () =>
                runSafely(() =>
                  apiFetch<void>('ui/apiKey', { method: 'DELETE', query: { user: user.name } }).then(() => {
                    notifySuccess(`The API key of ${user.name} was revoked`);
                    return client.invalidateQueries({ queryKey: usersKeys.apiKeyOf(user.name) });
                  }),
                ),
            })
          }
        >
          Revoke API key
        </Button>
      )}
      {user.mfaEnrolled && (
        <Button
          onClick={() =>
            modal.confirm({
              title: `Reset two-factor authentication of ${user.name}?`,
              content: 'The user signs in with the password only, and sets up an authenticator again if required.',
              okText: 'Reset',
              okButtonProps: { danger: true },
              onOk: () =>
                runSafely(() =>
                  apiFetch<void>(`ui/users/${encodeURIComponent(user.name)}/mfa`, { method: 'DELETE' }).then(() => {
                    notifySuccess(`Two-factor authentication of ${user.name} was reset`);
                    return client.invalidateQueries({ queryKey: usersKeys.users });
                  }),
                ),
            })
          }
        >
          Reset two-factor
        </Button>
      )}
      {user.email && user.realm === 'internal' && (
        <Button
          onClick={() =>
            void runSafely(async () => {
              const { message } = await apiFetch<{ message: string }>(
                `ui/users/${encodeURIComponent(user.name)}/invite`,
                { method: 'POST' },
              );
              notifySuccess(message);
            })
          }
        >
          E-mail a link to set the password
        </Button>
      )}
    </Space>
  );
}

/** New user, or edit one: name, e-mail, password, admin, UI access. */
export function UserModal({
  open,
  user,
  onClose,
}: {
  open: boolean;
  user: UserListItem | undefined;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const save = useSaveUser(user?.name);
  const invite = Form.useWatch('invite', form) === true;
  const groups = useGroups(open);
  const allUsers = useUsers();
  const autoJoin = useMemo(() => (groups.data ?? []).filter((g) => g.autoJoin).map((g) => g.name), [groups.data]);
  useEffect(() => {
    if (open) {
      form.setFieldsValue({
        name: user?.name ?? '',
        email: user?.email ?? '',
        password: '',
        admin: user?.admin ?? false,
        disableUIAccess: user?.disableUIAccess ?? false,
        mustChangePassword: user?.mustChangePassword ?? false,
        groups: user?.groups ?? [],
        invite: false,
      });
    }
  }, [open, user, form]);
  // a new user joins the groups that say so, once they are known: only that field is set then,
  // and only while nobody has changed it, so that what was typed meanwhile stays
  useEffect(() => {
    if (open && !user && !form.isFieldTouched('groups')) form.setFieldValue('groups', autoJoin);
  }, [open, user, form, autoJoin]);
  const submit = (v: Values) =>
    save
      .mutateAsync({
        name: user?.name ?? v.name.trim(),
        email: v.email.trim(),
        admin: v.admin,
        disableUIAccess: v.disableUIAccess,
        mustChangePassword: v.mustChangePassword,
        groups: v.groups,
        ...(v.invite && !user ? { invite: true } : {}),
        ...(v.password && !v.invite ? { password: v.password } : {}),
      })
      .then((saved) => notifySuccess(`User ${saved.name} was ${user ? 'updated' : 'created'}`));
  return (
    <FormModal<Values>
      open={open}
      title={user ? `Edit ${user.name}` : 'New User'}
      okText={user ? 'Save' : 'Create'}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      width={user ? 820 : undefined}
      after={
        user && (
          <>
            <UserActions user={user} />
            <Typography.Title level={2} style={{ fontSize: 16, marginTop: 20 }}>
              Effective permissions
            </Typography.Title>
            <EffectivePermissions subject={{ user: user.name }} />
          </>
        )
      }
    >
      <Form.Item
        label="User name"
        name="name"
        extra={user ? undefined : 'Letters, digits and . _ @ -'}
        {...(user
          ? {}
          : nameField({ schema: userFormSchema.shape.name, existing: (allUsers.data ?? []).map((u) => u.name) }))}
      >
        <Input disabled={Boolean(user)} autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="E-mail"
        name="email"
        {...schemaField(
          userFormSchema.shape.email,
          ...(invite ? [{ required: true, message: USER_MESSAGES.emailForInvitation }] : []),
        )}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        label={user ? 'New password' : 'Password'}
        name="password"
        extra={user ? 'Leave empty to keep the current password. A new one ends the user’s sessions.' : undefined}
        hidden={invite && !user}
        rules={user || invite ? [] : [{ required: true, message: USER_MESSAGES.passwordRequired }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {!user && (
        <Form.Item name="invite" valuePropName="checked" style={{ marginTop: -8 }}>
          <Checkbox>Send an invitation by e-mail instead: the user chooses the password</Checkbox>
        </Form.Item>
      )}
      <Form.Item label="Groups" name="groups" extra="New users start in the groups marked auto-join.">
        <Select
          mode="multiple"
          allowClear
          aria-label="Groups"
          loading={groups.isPending}
          placeholder="No groups"
          options={(groups.data ?? []).map((g) => ({ value: g.name, label: g.name }))}
        />
      </Form.Item>
      <Form.Item name="admin" valuePropName="checked" style={{ marginBottom: 8 }}>
        <Checkbox>Administrator</Checkbox>
      </Form.Item>
      <Form.Item name="disableUIAccess" valuePropName="checked" style={{ marginBottom: 8 }}>
        <Checkbox>No console access (for CI and other clients)</Checkbox>
      </Form.Item>
      <Form.Item name="mustChangePassword" valuePropName="checked">
        <Checkbox>Must change the password at next sign-in</Checkbox>
      </Form.Item>
    </FormModal>
  );
}
