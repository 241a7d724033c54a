import type { Generated, Insertable, Selectable } from 'kysely';
import type {
  AccessTokensTable,
  GroupMembersTable,
  GroupsTable,
  LoginFailuresTable,
  OauthClientTokensTable,
  OauthClientsTable,
  OauthCodesTable,
  OauthGrantsTable,
  OneTimeTokensTable,
  PermissionGrantsTable,
  PermissionTargetsTable,
  ProjectMembersTable,
  ProjectsTable,
  SamlAssertionsTable,
  SessionsTable,
  SshKeysTable,
  SsoRequestsTable,
  UserCustomDataTable,
  UsersTable,
  WebLoginsTable,
} from './tables/access.js';
import type {
  ArchiveClassesTable,
  BinariesTable,
  BuildFilesTable,
  BuildPromotionsTable,
  BuildsTable,
  ItemPropertiesTable,
  ItemsNameSearchTable,
  ItemsTable,
  MadeFilesTable,
  PackageVersionsTable,
  RemoteStatesTable,
  RepositoriesTable,
  RepositoryUsageTable,
} from './tables/content.js';
import type {
  AdoptionMetricsTable,
  AuditEventsTable,
  CertificatesTable,
  EventReceiptsTable,
  EventsTable,
  GenerationsTable,
  KeyPairsTable,
  LicensesTable,
  NodesTable,
  OutboxConsumersTable,
  ProxiesTable,
  RateLimitsTable,
  SettingsTable,
  SigningKeysTable,
  StorageSamplesTable,
  SupportBundlesTable,
  TrustedKeysTable,
  WorkHistoryTable,
  WorkTasksTable,
} from './tables/platform.js';
import type {
  DeploymentsTable,
  FederationClocksTable,
  FederationConflictsTable,
  FederationsTable,
  LicenseBucketLicensesTable,
  LicenseBucketUsageTable,
  LicenseBucketsTable,
  PairingTokensTable,
  ReplicationRunsTable,
  ReplicationsTable,
  VcsIntegrationsTable,
} from './tables/fleet.js';
import type {
  ArchiveExecutionItemsTable,
  ArchiveExecutionsTable,
  ArchivePoliciesTable,
  ArchiveSamplesTable,
  ArchivedItemsTable,
  ColdBinariesTable,
} from './tables/retention.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from './tables/webhooks.js';
import type {
  EnvironmentRepositoriesTable,
  EnvironmentsTable,
  ItemHoldsTable,
  ReleaseBundleArtifactsTable,
  ReleaseBundleDistributionsTable,
  ReleaseBundlePromotionsTable,
  ReleaseBundleVersionsTable,
} from './tables/lifecycle.js';
import type {
  AdvisoriesTable,
  AdvisoryPackagesTable,
  PackageFindingsTable,
  PackageScansTable,
  ScanIgnoreRulesTable,
  AdvisorySourcesTable,
  ScanPoliciesTable,
  ScanWatchesTable,
} from './tables/scanning.js';

/**
 * The database's tables, one type each, kept by area under `tables/`. Timestamps are epoch
 * milliseconds and flags are 0/1 integers, so that one migration serves SQLite and PostgreSQL alike.
 */
export type * from './tables/access.js';
export type * from './tables/content.js';
export type * from './tables/platform.js';
export type * from './tables/fleet.js';
export type * from './tables/retention.js';
export type * from './tables/webhooks.js';
export type * from './tables/lifecycle.js';
export type * from './tables/scanning.js';

/** A table's name. */
export type TableName = keyof Database;

export interface Database {
  advisories: AdvisoriesTable;
  advisory_packages: AdvisoryPackagesTable;
  package_scans: PackageScansTable;
  package_findings: PackageFindingsTable;
  scan_policies: ScanPoliciesTable;
  scan_watches: ScanWatchesTable;
  scan_ignore_rules: ScanIgnoreRulesTable;
  advisory_sources: AdvisorySourcesTable;
  item_holds: ItemHoldsTable;
  environments: EnvironmentsTable;
  environment_repositories: EnvironmentRepositoriesTable;
  release_bundle_versions: ReleaseBundleVersionsTable;
  release_bundle_artifacts: ReleaseBundleArtifactsTable;
  release_bundle_promotions: ReleaseBundlePromotionsTable;
  release_bundle_distributions: ReleaseBundleDistributionsTable;
  archive_policies: ArchivePoliciesTable;
  archive_executions: ArchiveExecutionsTable;
  archive_execution_items: ArchiveExecutionItemsTable;
  archived_items: ArchivedItemsTable;
  cold_binaries: ColdBinariesTable;
  archive_samples: ArchiveSamplesTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  nodes: NodesTable;
  support_bundles: SupportBundlesTable;
  storage_samples: StorageSamplesTable;
  rate_limits: RateLimitsTable;
  work_tasks: WorkTasksTable;
  work_history: WorkHistoryTable;
  signing_keys: SigningKeysTable;
  user_custom_data: UserCustomDataTable;
  key_pairs: KeyPairsTable;
  ssh_keys: SshKeysTable;
  trusted_keys: TrustedKeysTable;
  sso_requests: SsoRequestsTable;
  saml_assertions: SamlAssertionsTable;
  pairing_tokens: PairingTokensTable;
  deployments: DeploymentsTable;
  federation_clocks: FederationClocksTable;
  federation_conflicts: FederationConflictsTable;
  federations: FederationsTable;
  replications: ReplicationsTable;
  replication_runs: ReplicationRunsTable;
  certificates: CertificatesTable;
  proxies: ProxiesTable;
  licenses: LicensesTable;
  license_buckets: LicenseBucketsTable;
  vcs_integrations: VcsIntegrationsTable;
  oauth_clients: OauthClientsTable;
  oauth_grants: OauthGrantsTable;
  oauth_codes: OauthCodesTable;
  oauth_client_tokens: OauthClientTokensTable;
  license_bucket_licenses: LicenseBucketLicensesTable;
  license_bucket_usage: LicenseBucketUsageTable;
  settings: SettingsTable;
  adoption_metrics: AdoptionMetricsTable;
  repositories: RepositoriesTable;
  remote_states: RemoteStatesTable;
  made_files: MadeFilesTable;
  binaries: BinariesTable;
  items: ItemsTable;
  item_properties: ItemPropertiesTable;
  archive_classes: ArchiveClassesTable;
  builds: BuildsTable;
  build_files: BuildFilesTable;
  build_promotions: BuildPromotionsTable;
  items_name_search: ItemsNameSearchTable;
  events: EventsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  permission_targets: PermissionTargetsTable;
  permission_grants: PermissionGrantsTable;
  access_tokens: AccessTokensTable;
  audit_events: AuditEventsTable;
  one_time_tokens: OneTimeTokensTable;
  web_logins: WebLoginsTable;
  projects: ProjectsTable;
  project_members: ProjectMembersTable;
  event_receipts: EventReceiptsTable;
  outbox_consumers: OutboxConsumersTable;
  repository_usage: RepositoryUsageTable;
  generations: GenerationsTable;
  package_versions: PackageVersionsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

export type PackageVersionRow = Selectable<PackageVersionsTable>;

export type UserRow = Selectable<UsersTable>;

export type NewUser = Insertable<UsersTable>;

export type SessionRow = Selectable<SessionsTable>;

export type NodeRow = Selectable<NodesTable>;

export type SupportBundleRow = Selectable<SupportBundlesTable>;

export type LicenseRow = Selectable<LicensesTable>;

export type NewLicense = Insertable<LicensesTable>;

export type RepositoryRow = Selectable<RepositoriesTable>;

export type ItemRow = Selectable<ItemsTable>;

export type { Generated };

export type GroupRow = Selectable<GroupsTable>;

export type PermissionTargetRow = Selectable<PermissionTargetsTable>;

export type AccessTokenRow = Selectable<AccessTokensTable>;

export type AuditEventRow = Selectable<AuditEventsTable>;

export type ProjectRow = Selectable<ProjectsTable>;
