import { Alert, Card, Flex, Result, Spin, Tree, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { useTreeRepos } from '../../artifacts';

/** The demo playground (`/demo`): its children as tabs of links. */
export function DemoLayout() {
  return (
    <>
      <PageHeader
        title="Demo playground"
        description="Parts of the console in isolation, for those who work on it. Reached only with the tested-feature flag."
      />
      <Flex gap={16} style={{ marginBottom: 16 }}>
        <Link to="/demo/tree">Tree</Link>
        <Link to="/demo/typescript/greeting">TypeScript</Link>
        <Link to="/demo/multi-mfe-mounting-container">Sub-applications</Link>
      </Flex>
      <Outlet />
    </>
  );
}

/** `/demo/tree`: the repositories as the tree browser's first level. */
export function DemoTreePage() {
  const repos = useTreeRepos();
  return (
    <Card title="Tree">
      {repos.isPending ? (
        <Spin />
      ) : (
        <Tree
          aria-label="Repositories"
          treeData={(repos.data ?? []).map((r) => ({
            key: r.repoKey,
            title: `${r.repoKey} (${r.repoType})`,
            isLeaf: true,
          }))}
        />
      )}
    </Card>
  );
}

/** `/demo/typescript/greeting`. */
export function DemoGreetingPage() {
  return (
    <Card title="Greeting">
      <Typography.Paragraph>Hello from a strictly typed page.</Typography.Paragraph>
    </Card>
  );
}

type SubApp = { name: string; render: () => string };

/** `/demo/multi-mfe-mounting-container`: loads two sub-applications and fails if either does not load. */
export function DemoMountingContainerPage() {
  const [state, setState] = useState<{ apps?: SubApp[]; error?: string }>({});
  useEffect(() => {
    let live = true;
    Promise.all([import('../demo/greeting-app'), import('../demo/clock-app')])
      .then((modules) => live && setState({ apps: modules.map((m) => m.mount()) }))
      .catch((error: Error) => live && setState({ error: error.message }));
    return () => {
      live = false;
    };
  }, []);
  if (state.error)
    return <Result status="error" title="A sub-application could not be loaded" subTitle={state.error} />;
  if (!state.apps) return <Spin />;
  return (
    <Flex gap={16} wrap>
      {state.apps.map((app) => (
        <Card key={app.name} title={app.name} style={{ minWidth: 280 }}>
          <Alert type="success" showIcon title={app.render()} />
        </Card>
      ))}
    </Flex>
  );
}
