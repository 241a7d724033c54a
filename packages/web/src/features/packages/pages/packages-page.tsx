import { AppstoreOutlined, DownloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Flex, Input, List, Select, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { PACKAGE_SEARCH_MIN_CHARS, packageTypeLabel, type PackageSortField } from '@arca/contracts';
import { PageHeader } from '../../../components/page-header';
import { formatRelative } from '../../../components/time';
import { usePackages, type PackageFilters } from '../api/get-packages';
import { packageHref } from '../components/package-link';
import { PackagePage } from './package-page';
import { VersionPage } from './version-page';

/** Types the catalogue holds packages of (those whose formats index them). */
const CATALOGUE_TYPES = ['npm', 'pypi'];

const SORTS: { value: string; label: string; by: PackageSortField; type: 'asc' | 'desc' }[] = [
  { value: 'name-asc', label: 'Name (A–Z)', by: 'name', type: 'asc' },
  { value: 'name-desc', label: 'Name (Z–A)', by: 'name', type: 'desc' },
  { value: 'modified-desc', label: 'Recently updated', by: 'modified', type: 'desc' },
  { value: 'downloads-desc', label: 'Most downloaded', by: 'downloads', type: 'desc' },
  { value: 'versionsCount-desc', label: 'Most versions', by: 'versionsCount', type: 'desc' },
];

/**
 * The search rules of spec §5 for a package name: a trailing `*` is added, and at least three
 * characters must remain once `*` and `?` are removed. Answers the pattern, or why there is none.
 */
export function namePattern(text: string): { pattern: string } | { tooShort: true } {
  const trimmed = text.trim();
  if (!trimmed) return { pattern: '' };
  if (trimmed.replace(/[*?]/g, '').length < PACKAGE_SEARCH_MIN_CHARS) return { tooShort: true };
  return { pattern: trimmed.endsWith('*') ? trimmed : `${trimmed}*` };
}

/** `/packages/:packageId?/:versionId?`: the package list, one package, or one version. */
export function PackagesRoute() {
  const { packageId, versionId } = useParams();
  if (packageId && versionId) return <VersionPage packageId={packageId} version={versionId} />;
  if (packageId) return <PackagePage packageId={packageId} />;
  return <PackagesPage />;
}

/** Every package the caller may read, filtered by type and name, sorted, loaded page by page. */
export function PackagesPage() {
  const [text, setText] = useState('');
  const [type, setType] = useState('');
  const [sort, setSort] = useState('name-asc');
  const parsed = namePattern(text);
  const chosen = SORTS.find((s) => s.value === sort)!;
  const filters: PackageFilters = {
    name: 'pattern' in parsed ? parsed.pattern : '',
    type,
    sortBy: chosen.by,
    sortType: chosen.type,
  };
  const packages = usePackages(filters);
  const items = packages.data?.pages.flatMap((p) => p.edges.map((e) => e.node)) ?? [];
  const total = packages.data?.pages[0]?.totalCount ?? 0;

  // the last row coming into view loads the next page
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = packages;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, items.length]);

  const filtered = Boolean(text.trim() || type);
  return (
    <>
      <PageHeader title="Packages" description="Every package in the repositories you can read, with its versions." />
      <Card>
        <Flex gap={12} wrap style={{ marginBottom: 16 }}>
          <Input
            allowClear
            prefix={<SearchOutlined aria-hidden />}
            placeholder="Search by name (wildcards * and ?)"
            aria-label="Search packages by name"
            value={text}
            onChange={(e) => setText(e.target.value)}
            style={{ maxWidth: 360 }}
          />
          <Select
            aria-label="Package type"
            value={type}
            onChange={setType}
            style={{ width: 180 }}
            options={[
              { value: '', label: 'All types' },
              ...CATALOGUE_TYPES.map((t) => ({ value: t, label: packageTypeLabel(t) })),
            ]}
          />
          <Select aria-label="Sort by" value={sort} onChange={setSort} style={{ width: 200 }} options={SORTS} />
          {packages.isSuccess && (
            <Typography.Text type="secondary" style={{ alignSelf: 'center' }} aria-live="polite">
              {total} package{total === 1 ? '' : 's'}
            </Typography.Text>
          )}
        </Flex>
        {'tooShort' in parsed && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message={`Type at least ${PACKAGE_SEARCH_MIN_CHARS} characters (not counting * and ?) to search by name.`}
          />
        )}
        {packages.isPending ? (
          <Skeleton active paragraph={{ rows: 6 }} />
        ) : packages.isError ? (
          <Alert
            type="error"
            showIcon
            message="The package catalogue could not be loaded."
            description={packages.error.message}
          />
        ) : items.length === 0 ? (
          <Empty
            image={<AppstoreOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
            description={
              filtered
                ? 'No package matches. Try another name or type.'
                : 'No packages yet. Publish one with npm or twine to a local repository: Set Me Up in the Artifacts tree shows how.'
            }
          >
            {!filtered && (
              <Link to="/repos/tree/General">
                <Button type="primary">Open the Artifacts tree</Button>
              </Link>
            )}
          </Empty>
        ) : (
          <>
            <List
              itemLayout="vertical"
              dataSource={items}
              rowKey="id"
              renderItem={(p) => (
                <List.Item
                  key={p.id}
                  extra={
                    <Space direction="vertical" align="end" size={2}>
                      <Typography.Text type="secondary">
                        <DownloadOutlined aria-hidden /> {p.stats.downloads.toLocaleString()} downloads
                      </Typography.Text>
                      <Typography.Text type="secondary">Updated {formatRelative(p.modified)}</Typography.Text>
                    </Space>
                  }
                >
                  <List.Item.Meta
                    title={
                      <Space wrap>
                        <Link to={packageHref(p.id)} style={{ fontSize: 16 }}>
                          {p.name}
                        </Link>
                        <Tag color="blue">{packageTypeLabel(p.packageType)}</Tag>
                        <Typography.Text type="secondary">
                          {p.latestVersion} · {p.versionsCount} version{p.versionsCount === 1 ? '' : 's'}
                        </Typography.Text>
                      </Space>
                    }
                    description={p.description || <Typography.Text type="secondary">No description</Typography.Text>}
                  />
                  {(p.tags.length > 0 || p.licenses.length > 0) && (
                    <Space wrap size={4}>
                      {p.licenses.map((l) => (
                        <Tag key={`l-${l.name}`}>{l.name}</Tag>
                      ))}
                      {p.tags.slice(0, 8).map((t) => (
                        <Tag key={`t-${t}`} bordered={false}>
                          {t}
                        </Tag>
                      ))}
                    </Space>
                  )}
                </List.Item>
              )}
            />
            <div ref={sentinel} />
            {hasNextPage && (
              <Flex justify="center" style={{ marginTop: 12 }}>
                <Button onClick={() => void fetchNextPage()} loading={isFetchingNextPage}>
                  Load more ({items.length} of {total})
                </Button>
              </Flex>
            )}
          </>
        )}
      </Card>
    </>
  );
}
