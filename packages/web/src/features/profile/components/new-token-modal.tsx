import { Checkbox, Form, Input, Radio, Select } from 'antd';
import { TOKEN_SCOPE_GROUPS_PREFIX, TOKEN_SCOPE_USER, createTokenSchema, type CreatedToken } from '@arca/contracts';
import { FormModal } from '../../../components/form-modal';
import { REQUIRED, schemaField } from '../../../lib/schema-rules';
import { useCreateToken } from '../api/tokens';

export const EXPIRY_CHOICES = [
  { value: 3600, label: '1 hour' },
  { value: 86_400, label: '1 day' },
  { value: 30 * 86_400, label: '30 days' },
  { value: 365 * 86_400, label: '1 year' },
  { value: 0, label: 'Never' },
];

interface NewTokenValues {
  username: string;
  description: string;
  expiresIn: number;
  scope: 'user' | 'groups';
  groups: string[];
  refreshable: boolean;
}

/**
 * Generates an access token: for oneself (Edit Profile), or for any user (administrators, with
 * `userNames` to pick from): description, expiry, all rights or some groups', refreshable.
 */
export function NewTokenModal({
  open,
  onClose,
  onCreated,
  userNames,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (t: CreatedToken) => void;
  /** Administrators: the users a token may be made for (the user field shows). */
  userNames?: string[];
}) {
  const create = useCreateToken();
  const [form] = Form.useForm<NewTokenValues>();
  const scope = Form.useWatch('scope', form);
  const { shape } = createTokenSchema;
  return (
    <FormModal<NewTokenValues>
      open={open}
      title="Generate Access Token"
      okText="Generate"
      form={form}
      initialValues={{
        username: '',
        description: '',
        expiresIn: 30 * 86_400,
        scope: 'user',
        groups: [],
        refreshable: false,
      }}
      onSubmit={async (v) => {
        const token = await create.mutateAsync({
          description: v.description.trim(),
          expiresIn: v.expiresIn,
          scope: v.scope === 'user' ? TOKEN_SCOPE_USER : `${TOKEN_SCOPE_GROUPS_PREFIX}${v.groups.join(',')}`,
          ...(userNames ? { username: v.username } : {}),
          ...(v.refreshable ? { refreshable: true } : {}),
        });
        form.resetFields();
        onCreated(token);
      }}
      onClose={onClose}
    >
      {userNames && (
        <Form.Item label="User" name="username" {...schemaField(shape.username.unwrap())}>
          <Select
            showSearch
            aria-label="User"
            placeholder="The user whose rights the token carries"
            options={userNames.map((name) => ({ value: name, label: name }))}
          />
        </Form.Item>
      )}
      <Form.Item label="Description" name="description" {...schemaField(shape.description)}>
        <Input placeholder="e.g. CI pipeline for web-app" maxLength={1024} />
      </Form.Item>
      <Form.Item label="Expires after" name="expiresIn">
        <Select options={EXPIRY_CHOICES} aria-label="Expires after" style={{ width: 200 }} />
      </Form.Item>
      <Form.Item label="Scope" name="scope">
        <Radio.Group
          options={[
            { value: 'user', label: userNames ? 'All the user’s rights' : 'All my rights' },
            {
              value: 'groups',
              label: userNames
                ? 'Only the rights of some of the user’s groups'
                : 'Only the rights of some of my groups',
            },
          ]}
        />
      </Form.Item>
      {scope === 'groups' && (
        <Form.Item label="Groups" name="groups" rules={[REQUIRED]}>
          <Select mode="tags" open={false} aria-label="Groups" placeholder="Type the names of the groups" />
        </Form.Item>
      )}
      <Form.Item name="refreshable" valuePropName="checked" style={{ marginBottom: 0 }}>
        <Checkbox>Refreshable (a refresh token replaces the pair once, before it expires)</Checkbox>
      </Form.Item>
    </FormModal>
  );
}
