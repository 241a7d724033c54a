import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Input, Modal, Row, Select, Space, Spin, Tree, Typography } from 'antd';
import type { DataNode, EventDataNode } from 'antd/es/tree';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ERROR_MESSAGES, packageTypeLabel, type TreeNode, type TreeRepo } from '@arca/contracts';
import { API_BASE, runSafely } from '../../../api/client';
import { notifySuccess } from '../../../api/notifications';
import { useStartupData } from '../../../lib/startup';
import { PageHeader } from '../../../components/page-header';
import { deleteItem } from '../api/delete-item';
import { useAllowedActions } from '../api/get-allowed-actions';
import { emptyTrash } from '../api/empty-trash';
import { useItemInfo } from '../api/get-item-info';
import { getTreeChildren } from '../api/get-tree-children';
import { useTreeRepos } from '../api/get-tree-repos';
import { artifactsKeys } from '../api/keys';
import { restoreItem } from '../api/restore-item';
import { viewArchiveEntry } from '../api/view-archive-entry';
import { viewFile } from '../api/view-file';
import { CopyMoveModal } from '../components/copy-move-modal';
import { DeployModal } from '../components/deploy-modal';
import { ItemDetails, type ItemAction } from '../components/item-details';
import { NodeIcon, type NodeKind } from '../components/node-icon';
import { SetMeUpModal } from '../components/set-me-up-modal';
import { ProjectScopeNote } from '../../../components/project-scope-note';
import { plural } from '../../../components/format';

const PAGE = 200;
const MORE = '\u0000more';

interface Loaded {
  items: TreeNode[];
  total: number;
}

const keyOf = (repoKey: string, path: string) => `${repoKey}/${path}`;
function splitKey(key: string): { repoKey: string; path: string } {
  const slash = key.indexOf('/');
  return { repoKey: key.slice(0, slash), path: key.slice(slash + 1) };
}
const parentPath = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const treeUrl = (repoKey: string, path: string) =>
  `/repos/tree/General/${[repoKey, ...(path ? path.split('/') : [])].map(encodeURIComponent).join('/')}`;

/** The last node of a long folder: rendering it (scrolling it into view) loads the next page. */
function LoadMore({ remaining, onVisible }: { remaining: number; onVisible: () => void }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && onVisible());
    observer.observe(element);
    return () => observer.disconnect();
  }, [onVisible]);
  return (
    <span ref={ref}>
      <Spin size="small" />{' '}
      <Typography.Text type="secondary">Loading {remaining.toLocaleString()} more…</Typography.Text>
    </span>
  );
}

/** The artifact tree browser (`/repos/tree/General/{repo}/{path}`). */
export function TreeBrowserPage() {
  const params = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { modal } = App.useApp();
  const { user } = useStartupData();
  const repos = useTreeRepos();
  const [children, setChildren] = useState<Record<string, Loaded>>({});
  const [expanded, setExpanded] = useState<string[]>([]);
  const [filterKey, setFilterKey] = useState('');
  const [filterType, setFilterType] = useState<string>();
  const [filterPkg, setFilterPkg] = useState<string>();
  const [dialog, setDialog] = useState<ItemAction>();
  const [viewer, setViewer] = useState<{ title: string; text: string; truncated: boolean }>();
  const loading = useRef(new Map<string, Promise<void>>());

  const splat = params['*'] ?? '';
  const segments = splat.split('/').filter(Boolean);
  const repoKey = segments[0];
  const path = segments.slice(1).join('/');
  const info = useItemInfo(repoKey, path);
  const allowed = useAllowedActions(repoKey, path);
  const selectedKey = repoKey ? keyOf(repoKey, path) : undefined;

  // one request per folder page at a time; callers share the one in flight
  const load = useCallback((key: string, offset: number): Promise<void> => {
    const token = `${key}@${offset}`;
    const running = loading.current.get(token);
    if (running) return running;
    const { repoKey: rk, path: p } = splitKey(key);
    const work = getTreeChildren(rk, p, offset, PAGE)
      .then((page) =>
        setChildren((prev) => ({
          ...prev,
          [key]: { items: offset === 0 ? page.items : [...(prev[key]?.items ?? []), ...page.items], total: page.total },
        })),
      )
      // a refused or failed page was shown as a notification; the folder stays as it was
      .catch(() => undefined)
      .finally(() => loading.current.delete(token));
    loading.current.set(token, work);
    return work;
  }, []);

  // open the tree down to the path in the address
  useEffect(() => {
    if (!repoKey) return;
    const chain = [keyOf(repoKey, '')];
    const parts = path.split('/').filter(Boolean);
    // every ancestor, and the selected item itself: a selected folder opens (a file has no children)
    for (let i = 1; i <= parts.length; i++) chain.push(keyOf(repoKey, parts.slice(0, i).join('/')));
    // load outermost first, and expand once every level exists in the tree
    void (async () => {
      for (const key of chain) if (!children[key]) await load(key, 0).catch(() => undefined);
      setExpanded((prev) => [...new Set([...prev, ...chain])]);
    })();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [repoKey, path, load]);

  /** Reloads tree folders and the item views, except those of an item that is gone (no 404s for it). */
  const refresh = async (keys: string[], gone?: { repoKey: string; path: string }) => {
    await Promise.all(keys.map((k) => load(k, 0)));
    const isGone = (key: readonly unknown[]) =>
      gone !== undefined &&
      key.some(
        (part, i) =>
          part === gone.repoKey &&
          typeof key[i + 1] === 'string' &&
          (key[i + 1] === gone.path || (key[i + 1] as string).startsWith(`${gone.path}/`)),
      );
    await client.invalidateQueries({ queryKey: artifactsKeys.all, predicate: (query) => !isGone(query.queryKey) });
  };

  const visibleRepos = (repos.data ?? []).filter(
    (r) =>
      (!filterKey || r.repoKey.toLowerCase().includes(filterKey.toLowerCase())) &&
      (!filterType || r.repoType === filterType) &&
      (!filterPkg || r.pkgType === filterPkg),
  );

  const treeData = useMemo<DataNode[]>(() => {
    const build = (key: string): DataNode[] | undefined => {
      const loaded = children[key];
      if (!loaded) return undefined;
      const nodes: DataNode[] = loaded.items.map((item) => {
        const childKey = keyOf(splitKey(key).repoKey, item.path);
        return {
          key: childKey,
          title: item.name,
          icon: <NodeIcon kind={item.type as NodeKind} />,
          isLeaf: item.type !== 'folder',
          children: item.type === 'folder' ? build(childKey) : undefined,
        };
      });
      if (loaded.items.length < loaded.total) {
        nodes.push({
          key: `${key}${MORE}`,
          title: (
            <LoadMore
              remaining={loaded.total - loaded.items.length}
              onVisible={() => void load(key, loaded.items.length)}
            />
          ),
          isLeaf: true,
          selectable: false,
        });
      }
      return nodes;
    };
    return visibleRepos.map((repo: TreeRepo) => ({
      key: keyOf(repo.repoKey, ''),
      title: (
        <span>
          {repo.repoKey}{' '}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {packageTypeLabel(repo.pkgType)}
          </Typography.Text>
        </span>
      ),
      icon: <NodeIcon kind={repo.repoType} />,
      isLeaf: !repo.hasChildren && !children[keyOf(repo.repoKey, '')]?.total,
      children: build(keyOf(repo.repoKey, '')),
    }));
  }, [visibleRepos, children, load]);

  const onLoadData = (node: EventDataNode<DataNode>) => load(String(node.key), 0);

  const act = async (action: ItemAction) => {
    if (!repoKey || !info.data) return;
    const here = info.data;
    const parentKey = keyOf(repoKey, parentPath(path));
    switch (action) {
      case 'download':
        window.location.assign(`${API_BASE}download?${new URLSearchParams({ repoKey, path })}`);
        return;
      case 'downloadFolder':
        window.location.assign(
          `${API_BASE}ui/artifactactions/downloadfolder?${new URLSearchParams({ repoKey, path, archiveType: 'zip' })}`,
        );
        return;
      case 'view': {
        const file = await viewFile(repoKey, path);
        setViewer({ title: here.name, text: file.fileContent, truncated: file.truncated });
        return;
      }
      case 'delete':
        modal.confirm({
          title: here.repoType === 'trashcan' ? `Delete ${here.name} permanently?` : `Delete ${here.name}?`,
          content:
            here.repoType === 'trashcan'
              ? 'It is removed for good. This cannot be undone.'
              : `It moves to the trash can, where it can be restored${here.type === 'folder' ? ' with everything in it' : ''}.`,
          okText: 'Delete',
          okButtonProps: { danger: true },
          onOk: () =>
            runSafely(async () => {
              await deleteItem(repoKey, path);
              notifySuccess(`${here.name} was deleted`);
              navigate(treeUrl(repoKey, parentPath(path)));
              await refresh([parentKey, keyOf('auto-trashcan', '')], { repoKey, path });
            }),
        });
        return;
      case 'restore': {
        const restored = await restoreItem(path);
        notifySuccess(`Restored to ${restored.repoKey}/${restored.path}`);
        navigate(treeUrl(restored.repoKey, restored.path));
        await refresh([parentKey, keyOf(restored.repoKey, parentPath(restored.path))], { repoKey, path });
        return;
      }
      case 'emptyTrash':
        modal.confirm({
          title: 'Empty the trash can?',
          content: `${plural(here.files ?? 0, 'file')} ${(here.files ?? 0) === 1 ? 'is' : 'are'} deleted for good. This cannot be undone.`,
          okText: 'Empty trash can',
          okButtonProps: { danger: true },
          onOk: () =>
            runSafely(async () => {
              const result = await emptyTrash();
              notifySuccess(`Trash can emptied: ${plural(result.files, 'file')} removed`);
              setChildren((prev) => ({ ...prev, [keyOf('auto-trashcan', '')]: { items: [], total: 0 } }));
              await client.invalidateQueries({ queryKey: artifactsKeys.all });
            }),
        });
        return;
      default:
        setDialog(action);
    }
  };

  const details = (
    <ItemDetails
      info={info.data}
      loading={Boolean(repoKey) && info.isPending}
      notFound={info.isError}
      allowed={allowed.data}
      onAction={(a) => void runSafely(() => act(a))}
      onViewArchiveEntry={(entry) =>
        void runSafely(async () => {
          const r = await viewArchiveEntry(repoKey!, path, entry);
          setViewer({ title: entry, text: r.fileContent, truncated: r.truncated });
        })
      }
    />
  );

  return (
    <>
      <PageHeader
        title="Artifacts"
        description="Browse repositories, deploy, inspect checksums and properties, and restore from the trash can."
        extra={
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void (setChildren({}), client.invalidateQueries({ queryKey: artifactsKeys.all }))}
          >
            Refresh
          </Button>
        }
      />
      <ProjectScopeNote what="the repositories" />
      <Row gutter={20}>
        <Col xs={24} lg={9} xl={8}>
          <Card size="small" styles={{ body: { padding: 12 } }}>
            <Space direction="vertical" style={{ width: '100%' }} size={8}>
              <Input
                allowClear
                prefix={<SearchOutlined />}
                placeholder="Filter by repository key"
                aria-label="Filter by repository key"
                value={filterKey}
                onChange={(e) => setFilterKey(e.target.value)}
              />
              <Space style={{ width: '100%' }} styles={{ item: { flex: 1 } }}>
                <Select
                  allowClear
                  placeholder="Repository type"
                  aria-label="Repository type"
                  value={filterType}
                  onChange={setFilterType}
                  style={{ width: '100%' }}
                  options={['local', 'remote', 'virtual', 'trashcan'].map((t) => ({ value: t, label: t }))}
                />
                <Select
                  allowClear
                  placeholder="Package type"
                  aria-label="Package type"
                  value={filterPkg}
                  onChange={setFilterPkg}
                  style={{ width: '100%' }}
                  options={[...new Set((repos.data ?? []).map((r) => r.pkgType))].map((t) => ({
                    value: t,
                    label: packageTypeLabel(t),
                  }))}
                />
              </Space>
            </Space>
            <div style={{ marginTop: 12 }} role="region" aria-label="Repository tree">
              {repos.isPending ? (
                <Spin />
              ) : treeData.length === 0 ? (
                <Empty
                  description={
                    repos.data?.length
                      ? 'No repository matches the filters.'
                      : user?.admin
                        ? 'No repositories yet. Create one under Administration → Repositories.'
                        : 'No repositories you can read.'
                  }
                >
                  {!repos.data?.length && user?.admin && (
                    <Button type="primary" onClick={() => navigate('/admin/repositories')}>
                      Create a repository
                    </Button>
                  )}
                </Empty>
              ) : (
                <Tree
                  showIcon
                  blockNode
                  virtual
                  height={620}
                  treeData={treeData}
                  loadData={onLoadData}
                  loadedKeys={Object.keys(children)}
                  expandedKeys={expanded}
                  onExpand={(keys) => setExpanded(keys.map(String))}
                  selectedKeys={selectedKey ? [selectedKey] : []}
                  onSelect={(keys) => {
                    const key = keys[0];
                    if (key === undefined || String(key).endsWith(MORE)) return;
                    const { repoKey: rk, path: p } = splitKey(String(key));
                    navigate(treeUrl(rk, p));
                  }}
                />
              )}
            </div>
          </Card>
        </Col>
        <Col xs={24} lg={15} xl={16}>
          {repoKey ? (
            details
          ) : (
            <Card>
              <Empty description="Select a repository, folder or file in the tree." />
            </Card>
          )}
        </Col>
      </Row>
      {repoKey && (
        <>
          <DeployModal
            open={dialog === 'deploy'}
            repoKey={repoKey}
            packageType={repos.data?.find((r) => r.repoKey === repoKey)?.pkgType ?? 'generic'}
            folder={info.data?.type === 'folder' ? path : ''}
            onClose={() => setDialog(undefined)}
            onDeployed={(deployed) => {
              setDialog(undefined);
              void runSafely(() => refresh([keyOf(repoKey, parentPath(deployed)), keyOf(repoKey, '')]));
              navigate(treeUrl(repoKey, deployed));
            }}
          />
          <CopyMoveModal
            mode={dialog === 'copy' || dialog === 'move' ? dialog : undefined}
            repoKey={repoKey}
            path={path}
            onClose={() => setDialog(undefined)}
            onDone={(target) => {
              const moved = dialog === 'move';
              setDialog(undefined);
              navigate(treeUrl(target.repoKey, target.path));
              void runSafely(() =>
                refresh(
                  [keyOf(repoKey, parentPath(path)), keyOf(target.repoKey, parentPath(target.path))],
                  moved ? { repoKey, path } : undefined,
                ),
              );
            }}
          />
          <SetMeUpModal
            repoKey={repoKey}
            packageType={info.data?.pkgType ?? 'generic'}
            open={dialog === 'setMeUp'}
            onClose={() => setDialog(undefined)}
          />
        </>
      )}
      <Modal
        open={viewer !== undefined}
        title={viewer?.title}
        footer={null}
        width={900}
        onCancel={() => setViewer(undefined)}
        destroyOnHidden
      >
        {viewer?.truncated && (
          <Typography.Paragraph type="warning">Only the first 1 MiB is shown.</Typography.Paragraph>
        )}
        <pre className="arca-viewer">{viewer?.text}</pre>
      </Modal>
      {repoKey && info.isError && <span className="arca-sr-only">{ERROR_MESSAGES.notFound}</span>}
    </>
  );
}
