import { CheckOutlined, CopyOutlined, KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal, Space, Tabs, Tooltip, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { packageTypeLabel } from '@arca/contracts';
import { runSafely } from '../../../api/client';
import { useCurrentUser } from '../../auth';
import { useCreateToken } from '../../profile';
import { useSetMeUp } from '../../../lib/queries/set-me-up';
import { setMeUp, type Snippet } from '../../formats';

/** How long a token generated from Set Me Up lives. */
const TOKEN_DAYS = 30;

/** A snippet in a readable code block, with its own copy button. */
function SnippetBlock({ snippet }: { snippet: Snippet }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void runSafely(async () => {
      await navigator.clipboard.writeText(snippet.code);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    });
  return (
    <div className="arca-snippet-block">
      <pre className="arca-snippet" aria-label={snippet.title} tabIndex={0}>
        <code>{snippet.code}</code>
      </pre>
      <Tooltip title={copied ? 'Copied' : 'Copy to the clipboard'}>
        <Button
          size="small"
          className="arca-snippet-copy"
          icon={copied ? <CheckOutlined /> : <CopyOutlined />}
          onClick={copy}
          aria-label={`Copy: ${snippet.title}`}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </Tooltip>
    </div>
  );
}

/**
 * A tab per snippet, and one per group holding its snippets one under the other, each titled.
 * Keys are positions: antd builds element ids from them, and an id holds no spaces.
 */
function snippetTabs(snippets: Snippet[]) {
  const tabs: { key: string; label: string; children: ReactNode }[] = [];
  const groups = new Set<string>();
  snippets.forEach((snippet, i) => {
    if (!snippet.group) {
      // the tab names the file ("Resolve and deploy: ~/.m2/settings.xml" → "~/.m2/settings.xml"); its page says the rest
      const label = snippet.title.includes(': ') ? snippet.title.slice(snippet.title.indexOf(': ') + 2) : snippet.title;
      tabs.push({
        key: String(i),
        label,
        children:
          label === snippet.title ? (
            <SnippetBlock snippet={snippet} />
          ) : (
            <>
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {snippet.title}
              </Typography.Title>
              <SnippetBlock snippet={snippet} />
            </>
          ),
      });
      return;
    }
    if (groups.has(snippet.group)) return;
    groups.add(snippet.group);
    const members = snippets.filter((s) => s.group === snippet.group);
    tabs.push({
      key: String(i),
      label: snippet.group,
      children: (
        <Flex vertical gap={12}>
          {members.map((s) => (
            <div key={s.title}>
              <Typography.Title level={5} style={{ marginTop: 0 }}>
                {s.title}
              </Typography.Title>
              <SnippetBlock snippet={s} />
            </div>
          ))}
        </Flex>
      ),
    });
  });
  return tabs;
}

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
  const createToken = useCreateToken();
  const [token, setToken] = useState<string>();
  const baseUrl = server.data?.baseUrl ?? window.location.origin;
  const anonymous = !user.data || user.data.name === 'anonymous';
  const { served, snippets } = setMeUp(packageType, {
    baseUrl,
    repoKey,
    user: user.data?.name ?? 'user',
    secret: token,
  });
  const generate = () =>
    void runSafely(async () => {
      const created = await createToken.mutateAsync({
        description: `Set Me Up: ${repoKey}`,
        expiresIn: TOKEN_DAYS * 24 * 3600,
      });
      setToken(created.token);
    });
  const close = () => {
    setToken(undefined);
    onClose();
  };
  return (
    <Modal open={open} title={`Set Me Up: ${repoKey}`} footer={null} onCancel={close} width={860} destroyOnHidden>
      {!served && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`The ${packageTypeLabel(packageType)} client protocol is not served yet`}
          description="This repository stores and serves files as a generic repository does: deploy and fetch them with the calls below."
        />
      )}
      {token ? (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          title="A new access token is filled in below"
          description={`It acts as you, expires in ${TOKEN_DAYS} days and can be revoked in Edit Profile. It is shown only now: copy the snippets you need before closing this dialog.`}
        />
      ) : (
        <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
          <Typography.Text>
            Replace <Typography.Text code>&lt;PASSWORD&gt;</Typography.Text> with your password, or let Arca put a new
            access token there (revocable on its own, in Edit Profile).
          </Typography.Text>
          {!anonymous && (
            <Button icon={<KeyOutlined />} loading={createToken.isPending} onClick={generate}>
              Generate a token and fill it in
            </Button>
          )}
        </Space>
      )}
      <Tabs items={snippetTabs(snippets)} />
    </Modal>
  );
}
