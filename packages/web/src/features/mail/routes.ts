import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/configuration/mail',
    admin: true,
    menuKey: 'mail',
    menu: {
      order: 69,
      key: 'mail',
      minRank: 1,
      label: 'Mail',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'The mail server for password resets and invitations',
      adminOnly: true,
    },
    page: () => import('./pages/mail-settings-page'),
    component: 'MailSettingsPage',
  },
];
