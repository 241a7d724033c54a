import { PlusOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { QueryTable } from '../../../components/query-table';
import { ListToolbar } from '../../../components/list-toolbar';
import { formatDateTime, formatRelative } from '../../../components/time';
import { useEnvironments, useReleaseBundleNames, type BundleName } from '../api/release-bundles';
import { EnvironmentTrail } from '../components/environment-trail';
import { versionHref } from '../components/links';

/** `/bundles`: every release bundle the caller may read, with its latest version and how far it went. */
export function BundlesPage() {
  const bundles = useReleaseBundleNames();
  const environments = useEnvironments();
  const navigate = useNavigate();
  // the header's "Release bundles" search lands here with its name
  const [params] = useSearchParams();
  const [query, setQuery] = useState(params.get('q') ?? '');
  const rows = (bundles.data ?? []).filter((b) =>
    b.release_bundle_name.toLowerCase().includes(query.trim().toLowerCase()),
  );
  return (
    <>
      <PageHeader
        title="Release Bundles"
        description="Signed, immutable sets of artifacts, promoted through your environments on the way to production."
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate('/bundles/source')}>
            New Release Bundle
          </Button>
        }
      />
      <ListToolbar query={query} onQuery={setQuery} placeholder="Filter by name" label="Filter release bundles" />
      <QueryTable<BundleName>
        rowKey="release_bundle_name"
        query={bundles}
        rows={rows}
        noun={['release bundle', 'release bundles']}
        filter={query}
        emptyText="No release bundle yet. Create one from a build, other bundles, an AQL query or a list of artifacts: it is signed, and its artifacts are kept as they are."
        columns={[
          {
            title: 'Name',
            dataIndex: 'release_bundle_name',
            sorter: (a, b) => a.release_bundle_name.localeCompare(b.release_bundle_name),
            render: (name: string, b) => (
              <Link to={versionHref(name, b.release_bundle_version_latest)}>
                <Typography.Text strong>{name}</Typography.Text>
              </Link>
            ),
          },
          {
            title: 'Latest version',
            dataIndex: 'release_bundle_version_latest',
            render: (version: string, b) => <Link to={versionHref(b.release_bundle_name, version)}>{version}</Link>,
          },
          { title: 'Versions', dataIndex: 'versions', width: 100, align: 'right' },
          {
            title: 'Environments reached (latest version)',
            key: 'environments',
            render: (_: unknown, b) => (
              <EnvironmentTrail environments={environments.data ?? []} reached={b.environments} size="small" />
            ),
          },
          {
            title: 'Created',
            dataIndex: 'last_created',
            width: 160,
            defaultSortOrder: 'descend',
            sorter: (a, b) => a.last_created.localeCompare(b.last_created),
            render: (iso: string) => (
              <Space size={4}>
                <time dateTime={iso} title={formatDateTime(iso)}>
                  {formatRelative(iso)}
                </time>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
