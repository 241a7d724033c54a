import { Checkbox, Form, Input, Modal, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useGroups } from '../../groups/api/groups';
import { USER_MESSAGES, USER_NAME_PATTERN, type UserListItem } from '@arca/contracts';
import { ApiError } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { useSaveUser } from '../api/save-user';

interface Values {
  name: string;
  email: string;
  password: string;
  admin: boolean;
  disableUIAccess: boolean;
  mustChangePassword: boolean;
  groups: string[];
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
  const [errors, setErrors] = useState<string[]>([]);
  const groups = useGroups(open);
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
        groups: user?.groups ?? autoJoin,
      });
    }
  }, [open, user, form, autoJoin]);
  const close = () => {
    setErrors([]);
    onClose();
  };
  const submit = (v: Values) => {
    setErrors([]);
    save.mutate(
      {
        name: user?.name ?? v.name.trim(),
        email: v.email.trim(),
        admin: v.admin,
        disableUIAccess: v.disableUIAccess,
        mustChangePassword: v.mustChangePassword,
        groups: v.groups,
        ...(v.password ? { password: v.password } : {}),
      },
      {
        onSuccess: (saved) => {
          notifySuccess(`User ${saved.name} was ${user ? 'updated' : 'created'}`);
          close();
        },
        onError: (error) => setErrors(error instanceof ApiError ? error.messages : [error.message]),
      },
    );
  };
  return (
    <Modal
      open={open}
      title={user ? `Edit ${user.name}` : 'New User'}
      okText={user ? 'Save' : 'Create'}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      onCancel={close}
      destroyOnHidden
      forceRender
    >
      <ErrorList messages={errors} style={{ marginBottom: 16 }} />
      <Form<Values> form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          label="User name"
          name="name"
          rules={[
            { required: true, message: 'This field is mandatory.' },
            { pattern: USER_NAME_PATTERN, message: USER_MESSAGES.nameFormat },
          ]}
        >
          <Input disabled={Boolean(user)} autoComplete="off" />
        </Form.Item>
        <Form.Item label="E-mail" name="email" rules={[{ type: 'email', message: USER_MESSAGES.invalidEmail }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          label={user ? 'New password' : 'Password'}
          name="password"
          extra={user ? 'Leave empty to keep the current password. A new one ends the user’s sessions.' : undefined}
          rules={user ? [] : [{ required: true, message: 'This field is mandatory.' }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
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
      </Form>
    </Modal>
  );
}
