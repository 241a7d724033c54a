import { Button, Form, Modal, Select, Steps, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { packageTypeLabel } from '@arca/contracts';
import { useTreeRepos } from '../../features/artifacts/api/get-tree-repos';
import { SetMeUpModal } from '../../features/artifacts/components/set-me-up-modal';
import { useHomeInfo } from '../../features/overview/api/get-home-info';

/**
 * Getting Started (the user menu): the first steps from an empty install to a client that
 * resolves through Arca, each marked done from what the deployment holds.
 */
export function GettingStartedModal({ open, admin, onClose }: { open: boolean; admin: boolean; onClose: () => void }) {
  const info = useHomeInfo();
  const repositories = info.data?.repositoryCount ?? 0;
  const artifacts = info.data?.artifactCount ?? 0;
  const step = (done: boolean) => (done ? ('finish' as const) : ('wait' as const));
  const go = (to: string, label: string) => (
    <Link to={to} onClick={onClose}>
      {label}
    </Link>
  );
  return (
    <Modal open={open} title="Getting Started" onCancel={onClose} footer={<Button onClick={onClose}>Close</Button>}>
      <Typography.Paragraph type="secondary">
        Four steps from an empty install to clients that install and publish through Arca.
      </Typography.Paragraph>
      <Steps
        direction="vertical"
        size="small"
        items={[
          {
            title: 'Create repositories',
            status: step(repositories > 0),
            description: admin ? (
              <>
                {go('/quick-setup', 'Quick Setup: repositories for every package type you use, in one step')}
                <br />
                {go(
                  '/admin/repositories?quick=1',
                  'Quick Repository Creation: a local, a remote and a virtual one of one type',
                )}
              </>
            ) : (
              'Ask an administrator for a repository to work in.'
            ),
          },
          {
            title: 'Set up your client',
            status: step(false),
            description: 'npm, pip, Maven, Docker and the rest: Set Me Up writes the configuration, token included.',
          },
          {
            title: 'Deploy or publish a package',
            status: step(artifacts > 0),
            description: go('/repos/tree/General', 'Deploy from Artifacts, or publish with your client'),
          },
          {
            title: 'Give your team access',
            status: 'wait',
            description: admin
              ? go('/admin/management/permissions', 'Users, groups and permissions decide who reads and deploys where')
              : 'Your administrator decides who reads and deploys where.',
          },
        ]}
      />
    </Modal>
  );
}

/** Set Me Up from the user menu: pick a repository, then its client snippets. */
export function SetMeUpPicker({ open, onClose }: { open: boolean; onClose: () => void }) {
  const repos = useTreeRepos();
  const [chosen, setChosen] = useState<string>();
  const repo = repos.data?.find((r) => r.repoKey === chosen);
  const close = () => {
    setChosen(undefined);
    onClose();
  };
  if (repo) return <SetMeUpModal open={open} repoKey={repo.repoKey} packageType={repo.pkgType} onClose={close} />;
  return (
    <Modal open={open} title="Set Me Up" onCancel={close} footer={null}>
      <Form layout="vertical">
        <Form.Item
          label="Repository"
          htmlFor="set-me-up-repository"
          extra="The snippets use this repository's address."
        >
          <Select
            id="set-me-up-repository"
            showSearch={{ optionFilterProp: 'label' }}
            loading={repos.isPending}
            placeholder="Choose a repository"
            onChange={setChosen}
            options={(repos.data ?? [])
              .filter((r) => r.repoType !== 'trashcan')
              .map((r) => ({ value: r.repoKey, label: `${r.repoKey} (${packageTypeLabel(r.pkgType)})` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
