import { useState } from 'react';
import {
  ApiOutlined,
  AppstoreOutlined,
  DownOutlined,
  ReadOutlined,
  RocketOutlined,
  ThunderboltOutlined,
  SwapOutlined,
  LogoutOutlined,
  PlusOutlined,
  MenuOutlined,
  ProjectOutlined,
  SearchOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  Alert,
  Avatar,
  Button,
  Dropdown,
  Grid,
  Layout,
  Menu,
  Modal,
  Segmented,
  Space,
  Tooltip,
  Typography,
} from 'antd';
import { formatRelative } from '../../components/time';
import { Suspense, lazy } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useFooter } from '../../features/auth/api/get-footer';
import { Logo } from '../../components/logo';
import { useStartupData } from '../../lib/startup';
import { HeaderSearch } from '../../features/search/components/header-search';
import { FullPageSpinner } from '../root';
import { useIdleSessionCheck } from '../session-watch';

const GettingStartedModal = lazy(() => import('./user-menu-dialogs').then((m) => ({ default: m.GettingStartedModal })));
const SetMeUpPicker = lazy(() => import('./user-menu-dialogs').then((m) => ({ default: m.SetMeUpPicker })));
import { AppFooter } from './app-footer';
import { SidebarMenu } from './sidebar-menu';
import { ADMIN_HOME, APPLICATION_HOME, administrationHome, sidebarChoices, sidebarForPath } from './sidebars';
import { useProjects } from '../../features/projects/api/projects';
import { ProjectSelector } from '../../features/projects/components/project-selector';
import { PROJECT_SECTIONS } from '../../features/projects/sections';
import { useSelectedProject } from '../../lib/selected-project';

/** The admin menu's creation actions (spec part 1 §2), each opening its form. */
const ADMIN_ACTIONS: [string, string][] = [
  ['Quick Repository Creation', '/admin/repositories?quick=1'],
  ['New Local Repository', '/admin/repositories/new?rclass=local'],
  ['New Remote Repository', '/admin/repositories/new?rclass=remote'],
  ['New Virtual Repository', '/admin/repositories/new?rclass=virtual'],
  ['New User', '/admin/management/users/new'],
  ['New Group', '/admin/management/groups/new'],
  ['New Permission', '/admin/management/permissions/new'],
];

const SIDEBAR_OPTIONS = {
  application: { value: 'application', label: 'Application', icon: <AppstoreOutlined /> },
  administration: { value: 'administration', label: 'Administration', icon: <SettingOutlined /> },
  project: { value: 'project', label: 'Project Settings', icon: <ProjectOutlined /> },
} as const;

/** The Project Settings sidebar of the project in the path. */
function ProjectSidebar({ pathname }: { pathname: string }) {
  const [, , key = '', section = 'general'] = pathname.split('/');
  return (
    <nav aria-label="Project Settings">
      <Menu
        mode="inline"
        selectedKeys={[section]}
        style={{ borderInlineEnd: 0, paddingTop: 8 }}
        items={PROJECT_SECTIONS.map((s) => ({
          key: s.key,
          label: <Link to={`/projects/${key}/${s.key}`}>{s.label}</Link>,
        }))}
      />
    </nav>
  );
}

/** The console shell: header with the sidebar switch and user menu, sidebar, content, footer. */
export function AppLayout() {
  const { user, menu, menuItems } = useStartupData();
  const footer = useFooter();
  const location = useLocation();
  const navigate = useNavigate();
  useIdleSessionCheck(Boolean(user) && user?.name !== 'anonymous');
  const sidebar = sidebarForPath(location.pathname);
  const anonymous = !user || user.name === 'anonymous';
  const projects = useProjects(!anonymous);
  const selectedKey = useSelectedProject();
  const selected = projects.data?.find((p) => p.projectKey === selectedKey);
  const choices = sidebarChoices(
    Boolean(user?.admin || menu?.scanningRole),
    Boolean(selected?.isCurrentUserProjectAdmin),
    sidebar,
  );
  const adminHome = administrationHome(menuItems, menu);
  // below the lg breakpoint the sidebar folds away; a header button brings it back. Between lg
  // and xl (a 1024 px screen) it folds to its icons, so that tables keep their columns
  const [narrow, setNarrow] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const screens = Grid.useBreakpoint();
  const compact = !narrow && screens.xl === false;
  const [expanded, setExpanded] = useState(false);
  const folded = narrow ? collapsed : compact && !expanded;
  // the user menu's dialogs load with their first use
  const [dialog, setDialog] = useState<'getting-started' | 'set-me-up'>();
  // below lg the search bar opens in a dialog from a header button; a search (a new page) closes it
  const [searchingAt, setSearchingAt] = useState<string>();
  const searching = searchingAt === location.key;
  const projectHome = selected ? `/projects/${encodeURIComponent(selected.projectKey)}/general` : APPLICATION_HOME;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {dialog && (
        <Suspense fallback={null}>
          {dialog === 'getting-started' ? (
            <GettingStartedModal open admin={Boolean(user?.admin)} onClose={() => setDialog(undefined)} />
          ) : (
            <SetMeUpPicker open onClose={() => setDialog(undefined)} />
          )}
        </Suspense>
      )}
      {narrow && (
        <Modal
          open={searching}
          title="Search artifacts"
          footer={null}
          onCancel={() => setSearchingAt(undefined)}
          destroyOnHidden
        >
          <HeaderSearch user={user?.name ?? 'anonymous'} admin={Boolean(user?.admin)} width="100%" />
        </Modal>
      )}
      <a href="#main-content" className="arca-skip-link">
        Skip to content
      </a>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: narrow || compact ? 12 : 24,
          padding: narrow || compact ? '0 16px' : undefined,
          position: 'sticky',
          top: 0,
          zIndex: 10,
        }}
      >
        {(narrow || compact) && (
          <Button
            type="text"
            style={{ color: '#fff' }}
            icon={<MenuOutlined />}
            aria-label={folded ? 'Show the menu' : 'Hide the menu'}
            aria-expanded={!folded}
            onClick={() => (narrow ? setCollapsed((c) => !c) : setExpanded((e) => !e))}
          />
        )}
        {/* the link's name is the logo's visible text; the title says where it goes */}
        <Link to="/" title="Home" style={{ display: 'flex' }}>
          <Logo footer={footer.data} dark height={28} />
        </Link>
        {choices.length > 0 && (
          <Segmented
            aria-label="Sidebar"
            value={choices.includes(sidebar) ? sidebar : 'application'}
            onChange={(value) =>
              navigate(value === 'administration' ? adminHome : value === 'project' ? projectHome : APPLICATION_HOME)
            }
            options={choices.map((choice) => SIDEBAR_OPTIONS[choice])}
          />
        )}
        {!anonymous && <ProjectSelector />}
        <div style={{ flex: 1 }} />
        {narrow ? (
          <Button
            type="text"
            style={{ color: '#fff' }}
            icon={<SearchOutlined />}
            aria-label="Search artifacts"
            onClick={() => setSearchingAt(location.key)}
          />
        ) : (
          <HeaderSearch
            user={user?.name ?? 'anonymous'}
            admin={Boolean(user?.admin)}
            {...(compact ? { width: '320px' } : {})}
          />
        )}
        {anonymous ? (
          <Button type="primary" onClick={() => navigate('/login')}>
            Log in
          </Button>
        ) : (
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                {
                  key: 'who',
                  disabled: true,
                  label: (
                    <div>
                      <div style={{ fontWeight: 600, color: '#1f2937' }}>{user.name}</div>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {user.email ?? (user.admin ? 'Administrator' : 'User')}
                      </Typography.Text>
                    </div>
                  ),
                },
                { type: 'divider' },
                ...(user.admin
                  ? [
                      {
                        key: 'create',
                        icon: <PlusOutlined />,
                        label: 'Create',
                        children: ADMIN_ACTIONS.map(([label, path]) => ({
                          key: path,
                          label,
                          onClick: () => navigate(path),
                        })),
                      },
                    ]
                  : []),
                {
                  key: 'getting-started',
                  icon: <RocketOutlined />,
                  label: 'Getting Started',
                  onClick: () => setDialog('getting-started'),
                },
                ...(user?.admin
                  ? [
                      {
                        key: 'quick-setup',
                        icon: <ThunderboltOutlined />,
                        label: 'Quick Setup',
                        onClick: () => navigate('/quick-setup'),
                      },
                    ]
                  : []),
                { key: 'set-me-up', icon: <ApiOutlined />, label: 'Set Me Up', onClick: () => setDialog('set-me-up') },
                {
                  key: 'education-center',
                  icon: <ReadOutlined />,
                  label: 'Education Center',
                  onClick: () => navigate('/education-center'),
                },
                ...(choices.length > 1
                  ? [
                      {
                        key: 'switch',
                        icon: <SwapOutlined />,
                        label:
                          sidebar === 'application'
                            ? `Switch to ${SIDEBAR_OPTIONS[choices[1]!].label}`
                            : 'Switch to Application',
                        onClick: () =>
                          navigate(
                            sidebar !== 'application'
                              ? APPLICATION_HOME
                              : choices[1] === 'project'
                                ? projectHome
                                : adminHome,
                          ),
                      },
                    ]
                  : []),
                { type: 'divider' as const },
                { key: 'profile', icon: <UserOutlined />, label: 'Edit Profile', onClick: () => navigate('/profile') },
                { key: 'logout', icon: <LogoutOutlined />, label: 'Log out', onClick: () => navigate('/logout') },
              ],
            }}
          >
            <Button type="text" style={{ color: '#fff' }} aria-label={`User menu for ${user.name}`}>
              <Space>
                <Avatar size="small" icon={<UserOutlined />} style={{ background: '#1f4fd1' }} />
                {!narrow && !compact && user.name}
                <DownOutlined style={{ fontSize: 10 }} />
              </Space>
            </Button>
          </Dropdown>
        )}
      </Layout.Header>
      <Layout>
        <Layout.Sider
          // wide enough for the longest entry ("Authentication Providers") in full
          width={260}
          breakpoint="lg"
          collapsedWidth={narrow ? 0 : 64}
          collapsed={folded}
          trigger={null}
          onBreakpoint={(below) => {
            setNarrow(below);
            setCollapsed(below);
          }}
          style={{ borderRight: '1px solid #e5e9f0' }}
        >
          {sidebar === 'project' ? (
            <ProjectSidebar pathname={location.pathname} />
          ) : (
            menu && <SidebarMenu sidebar={sidebar} ctx={menu} pathname={location.pathname} folded={folded} />
          )}
          {sidebar === 'administration' && !folded && user?.admin && (
            <div style={{ padding: '8px 16px' }}>
              <Tooltip title="Every administration page on one screen">
                <Link to={ADMIN_HOME}>All administration settings</Link>
              </Tooltip>
            </div>
          )}
        </Layout.Sider>
        <Layout style={{ display: 'flex', flexDirection: 'column' }}>
          <Layout.Content id="main-content" tabIndex={-1} style={{ padding: '24px 32px', flex: 1, outline: 'none' }}>
            {user?.passwordExpiresAt && (
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 16 }}
                title={`Your password expires ${formatRelative(user.passwordExpiresAt)}.`}
                action={
                  <Link
                    to={`/login/change-password/${encodeURIComponent(user.name)}`}
                    state={{ message: 'Choose a new password before the old one expires.' }}
                  >
                    Change it now
                  </Link>
                }
              />
            )}
            <Suspense fallback={<FullPageSpinner />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
          <AppFooter footer={footer.data} />
        </Layout>
      </Layout>
    </Layout>
  );
}
