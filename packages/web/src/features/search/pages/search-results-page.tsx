import { DeleteOutlined, DownloadOutlined, FolderOpenOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  Input,
  Result,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { formatBytes } from '../../../components/format';
import { PageHeader } from '../../../components/page-header';
import { formatRelative } from '../../../components/time';
import { useStartupData } from '../../../lib/startup';
import { useTreeRepos } from '../../artifacts';
import { deleteResults, searchQuery, type SearchResult } from '../api/search';
import { searchKeys } from '../api/keys';
import { AdvancedSearchModal } from '../components/advanced-search-modal';
import { SEARCH_RESULTS_PATH } from '../components/header-search';
import {
  CONSOLE_SEARCH_TYPES,
  describe,
  fromSearchParams,
  invalidReason,
  rememberSearch,
  toSearchParams,
  type SearchModel,
} from '../search-model';
import { LoadError } from '../../../components/load-error';

type Row = SearchResult & { key: string };

/** Where the tree shows an item. */
export const treeLink = (repoKey: string, path: string) =>
  `/repos/tree/General/${[repoKey, ...path.split('/').filter(Boolean)].map(encodeURIComponent).join('/')}`;

/** The columns a type adds to name, repository and path. */
function typeColumns(model: SearchModel): TableColumnsType<Row> {
  switch (model.searchType) {
    case 'class':
      return [
        { title: 'Class', dataIndex: 'classPath', key: 'classPath', ellipsis: true },
        { title: 'Archive', dataIndex: 'archiveName', key: 'archiveName', ellipsis: true },
      ];
    case 'package':
    case 'remote':
      return [
        { title: 'Version', dataIndex: 'version', key: 'version', width: 140 },
        {
          title: 'Type',
          dataIndex: 'packageType',
          key: 'packageType',
          width: 100,
          render: (t: string) => <Tag>{t}</Tag>,
        },
      ];
    default:
      return [];
  }
}

/** `/artifactSearchResults?searchType=…&name=…&repo=…`: a search's results, with the actions on them. */
export function SearchResultsPage() {
  const [params, setParams] = useSearchParams();
  const queryString = params.toString();
  const model = useMemo(() => fromSearchParams(params), [queryString]); // eslint-disable-line react-hooks/exhaustive-deps
  const reason = invalidReason(model);
  const results = useQuery({ ...searchQuery(model, queryString), enabled: !reason });
  const { user } = useStartupData();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { modal, message } = App.useApp();
  const repos = useTreeRepos();
  const [advanced, setAdvanced] = useState(false);
  const [selected, setSelected] = useState<React.Key[]>([]);
  const [filter, setFilter] = useState('');
  const typeName = CONSOLE_SEARCH_TYPES.find((t) => t.name === model.searchType)?.displayName ?? model.searchType;
  const repoFilter = model.searchType !== 'remote' && model.searchType !== 'trash';
  const canDelete =
    model.searchType !== 'remote' && model.searchType !== 'package' && Boolean(user && user.name !== 'anonymous');

  const rows = useMemo(() => {
    const all = (results.data?.results ?? []).map((r) => ({
      ...r,
      key: `${r.repoKey}/${r.relativePath}/${String(r.name)}`,
    }));
    const text = filter.trim().toLowerCase();
    return text ? all.filter((r) => `${r.name} ${r.repoKey} ${r.relativePath}`.toLowerCase().includes(text)) : all;
  }, [results.data, filter]);

  const search = (next: SearchModel) => {
    if (user) rememberSearch(user.name, next);
    setSelected([]);
    navigate(`${SEARCH_RESULTS_PATH}?${toSearchParams(next).toString()}`);
  };

  const remove = (targets: SearchResult[]) =>
    modal.confirm({
      title: targets.length === 1 ? `Delete ${targets[0]!.name}?` : `Delete ${targets.length} items?`,
      content:
        model.searchType === 'trash'
          ? 'Items deleted from the trash can are gone for good.'
          : `${targets.length === 1 ? 'It moves' : 'They move'} to the trash can, from where an administrator can restore ${targets.length === 1 ? 'it' : 'them'}.`,
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: async () => {
        const answer = await deleteResults(
          targets.map((t) => ({ repoKey: t.repoKey, path: String(t.archivePath ?? t.relativePath) })),
        );
        if (answer.errors.length)
          void message.warning(`${answer.info}; ${answer.errors.length} refused: ${answer.errors[0]!.message}`);
        else void message.success(answer.info);
        setSelected([]);
        await client.invalidateQueries({ queryKey: searchKeys.all });
      },
    });

  const columns: TableColumnsType<Row> = [
    {
      title: 'Name',
      dataIndex: 'name',
      key: 'name',
      sorter: (a, b) => String(a.name).localeCompare(String(b.name)),
      render: (name: string, row) => (
        <Link to={treeLink(row.repoKey, String(row.archivePath ?? row.relativePath))}>{name}</Link>
      ),
    },
    ...typeColumns(model),
    {
      title: 'Repository',
      dataIndex: 'repoKey',
      key: 'repoKey',
      width: 180,
      sorter: (a, b) => a.repoKey.localeCompare(b.repoKey),
      filters: [...new Set((results.data?.results ?? []).map((r) => r.repoKey))].map((r) => ({ text: r, value: r })),
      onFilter: (value, row) => row.repoKey === value,
    },
    {
      title: 'Path',
      dataIndex: 'path',
      key: 'path',
      ellipsis: true,
      render: (path: string) => <Typography.Text type="secondary">{path || '/'}</Typography.Text>,
    },
    {
      title: 'Size',
      dataIndex: 'size',
      key: 'size',
      width: 100,
      align: 'right',
      sorter: (a, b) => Number(a.size ?? 0) - Number(b.size ?? 0),
      render: (size?: number) => (size === undefined ? '' : formatBytes(size)),
    },
    {
      title: 'Modified',
      dataIndex: 'modifiedDate',
      key: 'modifiedDate',
      width: 140,
      sorter: (a, b) => Date.parse(String(a.modifiedDate ?? 0)) - Date.parse(String(b.modifiedDate ?? 0)),
      render: (date?: string) =>
        date ? <Tooltip title={new Date(date).toLocaleString()}>{formatRelative(date)}</Tooltip> : '',
    },
    {
      title: <span className="arca-sr-only">Actions</span>,
      key: 'actions',
      width: 132,
      render: (_, row) => (
        <Space size={0}>
          <Tooltip title="Show in the tree">
            <Button
              type="text"
              aria-label={`Show ${row.name} in the tree`}
              icon={<FolderOpenOutlined />}
              onClick={() => navigate(treeLink(row.repoKey, String(row.archivePath ?? row.relativePath)))}
            />
          </Tooltip>
          {row.downloadLink && (
            <Tooltip title="Download">
              <Button
                type="text"
                aria-label={`Download ${row.name}`}
                icon={<DownloadOutlined />}
                href={row.downloadLink}
                download
              />
            </Tooltip>
          )}
          {canDelete && (
            <Tooltip title="Delete">
              <Button
                type="text"
                danger
                aria-label={`Delete ${row.name}`}
                icon={<DeleteOutlined />}
                onClick={() => remove([row])}
              />
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  const failure =
    results.error instanceof ApiError
      ? results.error.messages.join(' ')
      : results.error
        ? String(results.error)
        : undefined;
  return (
    <>
      <PageHeader
        title="Search results"
        description={
          <>
            <Tag color="blue">{typeName}</Tag>
            {describe(model) || 'No search terms'}
          </>
        }
        extra={
          <Button icon={<SearchOutlined />} onClick={() => setAdvanced(true)}>
            Refine search
          </Button>
        }
      />
      <Card>
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          {repoFilter && (
            <Select
              aria-label="Repositories"
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              style={{ minWidth: 260, flex: '0 1 420px' }}
              placeholder="All repositories"
              value={model.repositories}
              loading={repos.isLoading}
              onChange={(repositories: string[]) => {
                const next = toSearchParams({ ...model, repositories });
                setParams(next);
              }}
              options={(repos.data ?? [])
                .filter((r) => r.repoType !== 'trashcan')
                .map((r) => ({ value: r.repoKey, label: r.repoKey }))}
            />
          )}
          <Input
            aria-label="Filter the results"
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Filter by name, repository or path"
            style={{ flex: '0 1 320px' }}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <div style={{ flex: 1 }} />
          {results.data && (
            <Typography.Text type="secondary" role="status">
              {results.data.searchResultsMessage}
            </Typography.Text>
          )}
          {canDelete && selected.length > 0 && (
            <Button
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove(rows.filter((r) => selected.includes(r.key)))}
            >
              Delete {selected.length} selected
            </Button>
          )}
        </Flex>
        {results.data?.limitSearchResults && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message={`${results.data.searchResultsMessage}. Narrow the search (repositories, more of the name) to see the rest.`}
          />
        )}
        {(results.data?.errors ?? []).map((e) => (
          <Alert
            key={e.repoKey}
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            message={`${e.repoKey} could not be searched`}
            description={e.message}
          />
        ))}
        {reason ? (
          <Result
            status="info"
            title={reason}
            subTitle="Fill in the search, then run it."
            extra={
              <Button type="primary" onClick={() => setAdvanced(true)}>
                Open the advanced search
              </Button>
            }
          />
        ) : failure ? (
          <Alert type="error" showIcon message="The search failed" description={failure} />
        ) : (
          <Table
            size="middle"
            loading={results.isFetching}
            columns={columns}
            dataSource={rows}
            rowSelection={canDelete ? { selectedRowKeys: selected, onChange: setSelected } : undefined}
            pagination={{ defaultPageSize: 100, showSizeChanger: true, hideOnSinglePage: true }}
            locale={{
              emptyText: results.isError ? (
                <LoadError what="The search results" error={results.error} onRetry={() => void results.refetch()} />
              ) : results.isFetching ? (
                ' '
              ) : (
                <Empty
                  description={
                    <>
                      Nothing matches this search.
                      <br />
                      Try a wildcard (<code>*</code>), fewer terms or every repository.
                    </>
                  }
                />
              ),
            }}
          />
        )}
      </Card>
      <AdvancedSearchModal
        open={advanced}
        initial={model}
        onCancel={() => setAdvanced(false)}
        onSearch={(next) => {
          setAdvanced(false);
          search(next);
        }}
      />
    </>
  );
}
