import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/artifactory/security/keys_management/:label?',
    admin: true,
    menuKey: 'keys-management',
    title: 'Keys Management',
    menu: {
      order: 68,
      key: 'keys-management',
      minRank: 1,
      label: 'Keys Management',
      sidebar: 'administration',
      group: 'Security',
      description: 'GPG and RSA key pairs, and the keys that sign repository metadata',
      adminOnly: true,
    },
    page: () => import('./pages/keys-management-page'),
    component: 'KeysManagementPage',
  },
  {
    path: '/admin/artifactory/security/signing_keys',
    redirect: '/admin/artifactory/security/keys_management/signing-keys',
  },
  {
    path: '/admin/artifactory/security/certificates',
    redirect: '/admin/artifactory/security/keys_management/certificates',
  },
  {
    path: '/admin/artifactory/security/trusted_keys',
    redirect: '/admin/artifactory/security/keys_management/public-keys',
  },
  {
    path: '/admin/artifactory/security/ssh_server',
    redirect: '/admin/artifactory/security/keys_management/ssh-server',
  },
  {
    path: '/admin/artifactory/security/rsa_keys',
    redirect: '/admin/artifactory/security/keys_management/gpg-rsa-keys',
  },
];
