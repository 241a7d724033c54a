import { ControlOutlined, HistoryOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Dropdown, Input, Select, Space, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { ALL_PROJECTS_CONTEXT, type RecentSearch } from '@arca/contracts';
import { notifyError } from '../../../api/notifications';
import { useSelectedProject } from '../../../lib/selected-project';
import {
  CONSOLE_SEARCH_TYPES,
  changeType,
  emptyModel,
  fromSearchParams,
  invalidReason,
  recentSearches,
  rememberSearch,
  toSearchParams,
  type ConsoleSearchType,
  type SearchModel,
} from '../search-model';
import { AdvancedSearchModal } from './advanced-search-modal';

export const SEARCH_RESULTS_PATH = '/artifactSearchResults';

/** Opens the results page for a model, remembering it among the user's recent searches. */
export function useStartSearch(user: string) {
  const navigate = useNavigate();
  return (model: SearchModel) => {
    if (model.searchType === 'archive') {
      // the archive's own page answers it, over every day anything was archived
      const params = new URLSearchParams({ name: model.name.trim(), after: '', before: '' });
      return navigate(`${ARCHIVE_SEARCH_PATH}?${params.toString()}`);
    }
    if (model.searchType === 'releaseBundles')
      return navigate(`${RELEASE_BUNDLES_PATH}?${new URLSearchParams({ q: model.name.trim() }).toString()}`);
    if (model.searchType === 'security')
      return navigate(`${VULNERABILITY_SEARCH_PATH}?${new URLSearchParams({ q: model.name.trim() }).toString()}`);
    rememberSearch(user, model);
    navigate(`${SEARCH_RESULTS_PATH}?${toSearchParams(model).toString()}`);
  };
}

/** Where release bundle searches are answered: the bundles page, filtered by the name. */
export const RELEASE_BUNDLES_PATH = '/bundles';

/** Where security scanning searches are answered: the vulnerability search page. */
export const VULNERABILITY_SEARCH_PATH = '/security/vulnerabilities';

/** Where Archive searches are answered (spec part 1 §2). */
export const ARCHIVE_SEARCH_PATH = '/artifactoryRetention/search';

/** The header's search bar: a type, a name, recent searches and the advanced search. */
export function HeaderSearch({
  user,
  admin = false,
  width = 'min(520px, 42vw)',
}: {
  user: string;
  /** Archive search is for administrators: others do not see it. */
  admin?: boolean;
  width?: string;
}) {
  const [model, setModel] = useState<SearchModel>(() => emptyModel());
  const [advanced, setAdvanced] = useState(false);
  const [recentOpen, setRecentOpen] = useState(false);
  const start = useStartSearch(user);
  const navigate = useNavigate();
  const project = useSelectedProject();
  const inProject = project !== ALL_PROJECTS_CONTEXT.key;
  // only the name is typed in the bar: the other fields live in the advanced search
  const nameOnly = ['quick', 'remote', 'trash', 'checksum', 'class', 'archive', 'releaseBundles', 'security'].includes(
    model.searchType,
  );
  const barModel: SearchModel = model.searchType === 'checksum' ? { ...model, checksum: model.name } : model;
  const blank = !model.name.trim();
  const recent = useMemo(() => (recentOpen ? recentSearches(user) : []), [recentOpen, user]);
  // the recent search the arrow keys point at (-1: none)
  const [active, setActive] = useState(-1);
  const openRecent = (entry: RecentSearch) => {
    setRecentOpen(false);
    setActive(-1);
    rememberSearch(user, fromSearchParams(new URLSearchParams(entry.query)));
    navigate(`${SEARCH_RESULTS_PATH}?${entry.query}`);
  };

  // why the bar's search cannot run ('Invalid Checksum Length'), said when it is asked for
  const [refusal, setRefusal] = useState<string | undefined>();
  const submit = () => {
    if (!nameOnly) return setAdvanced(true);
    if (blank) return;
    const reason = invalidReason(barModel);
    if (reason) {
      setRefusal(reason);
      notifyError(reason);
      return;
    }
    start(barModel);
  };

  return (
    <>
      <Space.Compact className="arca-header-search" style={{ width, minWidth: width === '100%' ? undefined : 320 }}>
        <Select
          aria-label="Search type"
          value={model.searchType}
          style={{ width: 130 }}
          popupMatchSelectWidth={false}
          onChange={(value: ConsoleSearchType) => {
            setRefusal(undefined);
            setModel(changeType(model, value));
          }}
          options={CONSOLE_SEARCH_TYPES.filter((t) => admin || t.name !== 'archive').map((t) => ({
            value: t.name,
            label: t.displayName,
            disabled: inProject && !t.isSupportingContext,
            title: inProject && !t.isSupportingContext ? 'Not available with a project selected' : undefined,
          }))}
        />
        <Dropdown
          // open while the bar has the focus; a press on an entry keeps the focus, so the click lands
          open={recentOpen && recent.length > 0}
          trigger={[]}
          popupRender={(menu) => <div onMouseDown={(e) => e.preventDefault()}>{menu}</div>}
          menu={{
            items: [
              { key: 'title', type: 'group', label: 'Recent searches' },
              ...recent.map((entry) => ({
                key: entry.id,
                icon: <HistoryOutlined />,
                label: `${CONSOLE_SEARCH_TYPES.find((t) => t.name === entry.type)?.displayName ?? entry.type}: ${entry.label}`,
                onClick: () => openRecent(entry),
              })),
            ],
            selectedKeys: active >= 0 && recent[active] ? [recent[active].id] : [],
          }}
        >
          <Input
            aria-label="Search"
            placeholder={
              nameOnly
                ? model.searchType === 'checksum'
                  ? 'SHA-1, MD5 or SHA-256'
                  : 'Search artifacts'
                : 'Open the advanced search for these fields'
            }
            value={model.name}
            status={refusal ? 'error' : undefined}
            aria-invalid={refusal ? true : undefined}
            title={refusal}
            onChange={(e) => {
              setRefusal(undefined);
              setModel({ ...model, name: e.target.value });
            }}
            onPressEnter={() => (active >= 0 && recent[active] ? openRecent(recent[active]) : submit())}
            onFocus={() => setRecentOpen(true)}
            onBlur={() => {
              setRecentOpen(false);
              setActive(-1);
            }}
            onKeyDown={(e) => {
              // the arrows walk the recent searches, Enter opens the one chosen, Escape closes the list
              if (e.key === 'Escape') setRecentOpen(false);
              else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                setRecentOpen(true);
                const step = e.key === 'ArrowDown' ? 1 : -1;
                setActive((i) => (recent.length ? ((i + 1 + step + recent.length + 1) % (recent.length + 1)) - 1 : -1));
              }
            }}
            allowClear
          />
        </Dropdown>
        <Tooltip title={blank && nameOnly ? 'Type something to search for' : 'Search'}>
          <Button
            aria-label="Run search"
            icon={<SearchOutlined />}
            disabled={nameOnly && (blank || Boolean(invalidReason(barModel)))}
            onClick={submit}
          />
        </Tooltip>
        <Tooltip title="Advanced search">
          <Button aria-label="Advanced search" icon={<ControlOutlined />} onClick={() => setAdvanced(true)} />
        </Tooltip>
      </Space.Compact>
      <AdvancedSearchModal
        open={advanced}
        initial={barModel}
        onCancel={() => setAdvanced(false)}
        onSearch={(chosen) => {
          setAdvanced(false);
          setModel({ ...chosen, name: chosen.name || model.name });
          start(chosen);
        }}
      />
    </>
  );
}
