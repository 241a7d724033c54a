import { Modal, Tabs, Typography } from 'antd';
import { useCurrentUser } from '../../auth/api/get-current-user';
import { useSetMeUp } from '../api/get-set-me-up';
import { setMeUpSnippets } from './set-me-up';

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
  const setMeUp = useSetMeUp();
  const user = useCurrentUser();
  const baseUrl = setMeUp.data?.baseUrl ?? window.location.origin;
  const snippets = setMeUpSnippets(baseUrl, repoKey, packageType, user.data?.name ?? 'user');
  return (
    <Modal open={open} title={`Set Me Up: ${repoKey}`} footer={null} onCancel={onClose} width={760} destroyOnHidden>
      <Typography.Paragraph type="secondary">
        Replace <Typography.Text code>&lt;PASSWORD&gt;</Typography.Text> with your password. Access tokens, which can be
        revoked one by one, arrive with token management.
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
