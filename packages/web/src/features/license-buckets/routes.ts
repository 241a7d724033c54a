import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/license_management/license_buckets',
    admin: true,
    menuKey: 'license-buckets',
    title: 'License Buckets',
    menu: {
      order: 89,
      key: 'license-buckets',
      minRank: 1,
      label: 'License Buckets',
      sidebar: 'administration',
      group: 'License Management',
      description: "The fleet's licenses in buckets, attached to platform deployments, split and reported",
      adminOnly: true,
    },
    page: () => import('./pages/license-buckets-page'),
    component: 'LicenseBucketsPage',
  },
  {
    path: '/admin/license_management/license_buckets/add',
    admin: true,
    menuKey: 'license-buckets',
    title: 'Add New Bucket',
    page: () => import('./pages/add-license-bucket-page'),
    component: 'AddLicenseBucketPage',
  },
  {
    path: '/admin/license_management/license_buckets/attach/:bucketId',
    admin: true,
    menuKey: 'license-buckets',
    title: 'Attach License',
    page: () => import('./pages/attach-license-page'),
    component: 'AttachLicensePage',
  },
  {
    path: '/admin/license_management/license_buckets/report/:bucketId',
    admin: true,
    menuKey: 'license-buckets',
    title: 'Bucket Report',
    page: () => import('./pages/bucket-report-page'),
    component: 'BucketReportPage',
  },
];
