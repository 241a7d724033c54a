import { Checkbox, Form, Input, Select, Typography } from 'antd';
import { EffectivePermissions } from '../../permissions';
import { useEffect } from 'react';
import { groupFormSchema, type Group } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { FormModal } from '../../../components/form-modal';
import { useGroups, useUsers } from '../../../lib/queries/directory';
import { useSaveGroup } from '../api/groups';
import { nameField } from '../../../lib/name-rules';

interface Values {
  name: string;
  description: string;
  autoJoin: boolean;
  adminPrivileges: boolean;
  watchManager: boolean;
  policyManager: boolean;
  policyViewer: boolean;
  members: string[];
}

/** New group, or edit one: name, description, auto-join, admin privileges, security scanning roles, members. */
export function GroupModal({ open, group, onClose }: { open: boolean; group: Group | undefined; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveGroup(group?.name);
  const users = useUsers();
  const groups = useGroups();
  useEffect(() => {
    if (open) {
      form.setFieldsValue({
        name: group?.name ?? '',
        description: group?.description ?? '',
        autoJoin: group?.autoJoin ?? false,
        adminPrivileges: group?.adminPrivileges ?? false,
        watchManager: group?.watchManager ?? false,
        policyManager: group?.policyManager ?? false,
        policyViewer: group?.policyViewer ?? false,
        members: group?.members ?? [],
      });
    }
  }, [open, group, form]);
  const submit = (v: Values) =>
    save
      .mutateAsync({ ...v, name: group?.name ?? v.name.trim(), description: v.description.trim() })
      .then((saved) => notifySuccess(`Group ${saved.name} was ${group ? 'updated' : 'created'}`));
  return (
    <FormModal<Values>
      open={open}
      title={group ? `Edit ${group.name}` : 'New Group'}
      okText={group ? 'Save' : 'Create'}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      width={group ? 820 : 560}
      after={
        group && (
          <>
            <Typography.Title level={2} style={{ fontSize: 16, marginTop: 20 }}>
              Effective permissions
            </Typography.Title>
            <EffectivePermissions subject={{ group: group.name }} />
          </>
        )
      }
    >
      <Form.Item
        label="Group name"
        name="name"
        extra={group ? undefined : 'Letters, digits and . _ -'}
        {...(group
          ? {}
          : nameField({ schema: groupFormSchema.shape.name, existing: (groups.data ?? []).map((g) => g.name) }))}
      >
        <Input disabled={Boolean(group)} autoComplete="off" />
      </Form.Item>
      <Form.Item label="Description" name="description">
        <Input.TextArea rows={2} maxLength={1024} />
      </Form.Item>
      <Form.Item label="Members" name="members">
        <Select
          mode="multiple"
          allowClear
          loading={users.isPending}
          placeholder="Choose users"
          options={(users.data ?? []).map((u) => ({ value: u.name, label: u.name }))}
          aria-label="Members"
        />
      </Form.Item>
      <Form.Item name="autoJoin" valuePropName="checked" style={{ marginBottom: 8 }}>
        <Checkbox>Automatically join new users to this group</Checkbox>
      </Form.Item>
      <Form.Item name="adminPrivileges" valuePropName="checked">
        <Checkbox>Members are administrators</Checkbox>
      </Form.Item>
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend style={{ fontSize: 14, fontWeight: 600, marginBottom: 8 }}>Security &amp; Compliance roles</legend>
        <Form.Item name="policyManager" valuePropName="checked" style={{ marginBottom: 4 }}>
          <Checkbox>Policy manager: creates, edits and deletes policies</Checkbox>
        </Form.Item>
        <Form.Item name="watchManager" valuePropName="checked" style={{ marginBottom: 4 }}>
          <Checkbox>Watch manager: creates, edits and deletes watches and ignore rules</Checkbox>
        </Form.Item>
        <Form.Item name="policyViewer" valuePropName="checked">
          <Checkbox>Policy viewer: sees policies, watches and ignore rules</Checkbox>
        </Form.Item>
      </fieldset>
    </FormModal>
  );
}
