import { Alert, Modal, Tabs, Typography } from 'antd';
import { packageTypeLabel } from '@arca/contracts';
import { useCurrentUser } from '../../auth/api/get-current-user';
import { useSetMeUp } from '../api/get-set-me-up';
import { setMeUp } from '../../formats';

/** Set Me Up: the snippets a client needs for this repository, with the real base URL. */
export function SetMeUpModal({
  repoKey,
  packageType,
  open,
  onClose,
}: {
  repoKey: string;
  packageType: string;
  open: boolean;
  onClose: () => void;
}) {
  const server = useSetMeUp();
  const user = useCurrentUser();
  const baseUrl = server.data?.baseUrl ?? window.location.origin;
  const { served, snippets } = setMeUp(packageType, { baseUrl, repoKey, user: user.data?.name ?? 'user' });
  return (
    <Modal open={open} title={`Set Me Up: ${repoKey}`} footer={null} onCancel={onClose} width={760} destroyOnHidden>
      {!served && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`The ${packageTypeLabel(packageType)} client protocol is not served yet`}
          description="This repository stores and serves files as a generic repository does: deploy and fetch them with the calls below."
        />
      )}
      <Typography.Paragraph type="secondary">
        Replace <Typography.Text code>&lt;PASSWORD&gt;</Typography.Text> with your password or, better, with an access
        token from Edit Profile, which can be revoked on its own.
      </Typography.Paragraph>
      <Tabs
        items={snippets.map((s, i) => ({
          key: String(i),
          label: s.title,
          children: (
            <Typography.Paragraph copyable={{ text: s.code }} style={{ marginBottom: 0 }}>
              <pre className="arca-snippet">{s.code}</pre>
            </Typography.Paragraph>
          ),
        }))}
      />
    </Modal>
  );
}
