import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** Package type ids a repository can hold. */
export const PACKAGE_TYPES = [
  'alpine',
  'bower',
  'cargo',
  'chef',
  'cocoapods',
  'composer',
  'conan',
  'conda',
  'cran',
  'debian',
  'docker',
  'gems',
  'generic',
  'gitlfs',
  'go',
  'gradle',
  'helm',
  'ivy',
  'maven',
  'npm',
  'nuget',
  'oci',
  'opkg',
  'pub',
  'puppet',
  'pypi',
  'rpm',
  'sbt',
  'swift',
  'terraform',
  'vagrant',
] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

/** Aliases of spec part 1 §3: golang → go, gav → maven, deb → debian, rubygems → gems, terraform module/provider → terraform, yum → rpm. */
export const PACKAGE_TYPE_ALIASES: Record<string, PackageType> = {
  golang: 'go',
  gav: 'maven',
  deb: 'debian',
  rubygems: 'gems',
  terraformmodule: 'terraform',
  terraformprovider: 'terraform',
  terraform_module: 'terraform',
  terraform_provider: 'terraform',
  yum: 'rpm',
};

/** The canonical package type id of a name or alias, case-insensitive; undefined when unknown. */
export function canonicalPackageType(name: string): PackageType | undefined {
  const lower = name.trim().toLowerCase();
  if ((PACKAGE_TYPES as readonly string[]).includes(lower)) return lower as PackageType;
  return PACKAGE_TYPE_ALIASES[lower];
}

export const PACKAGE_TYPE_LABELS: Partial<Record<PackageType, string>> = {
  generic: 'Generic',
  maven: 'Maven',
  npm: 'npm',
  pypi: 'PyPI',
  docker: 'Docker',
  oci: 'OCI',
  helm: 'Helm',
  go: 'Go',
  nuget: 'NuGet',
  gradle: 'Gradle',
  debian: 'Debian',
  rpm: 'RPM',
  gems: 'RubyGems',
  cargo: 'Cargo',
  conan: 'Conan',
  terraform: 'Terraform',
};

export function packageTypeLabel(type: string): string {
  return PACKAGE_TYPE_LABELS[type as PackageType] ?? type.charAt(0).toUpperCase() + type.slice(1);
}

export const REPOSITORY_CLASSES = ['local', 'remote', 'virtual'] as const;
export type RepositoryClass = (typeof REPOSITORY_CLASSES)[number];

/** The trash can: a special repository holding deleted items at `{repoKey}/{path}`. */
export const TRASHCAN_REPO = 'auto-trashcan';
/** Where build info is stored (`{build name}/{number}-{started ms}.json`); build permissions govern it. */
export const BUILD_INFO_REPO = 'artifactory-build-info';

export const REPOSITORY_MESSAGES = {
  keyFormat:
    'The repository key may contain only letters, digits, dashes, underscores and periods, and must start with a letter or digit.',
  keyTaken: "A repository with the key '{key}' already exists.",
  keyReserved: "The repository key '{key}' is reserved.",
  notFound: "Repository '{key}' was not found.",
  notEmpty: "Repository '{key}' is not empty: delete its content first.",
  urlRequired: 'A remote repository needs the URL of its upstream.',
  invalidUrl: 'Enter a valid URL.',
  unknownType: "Unknown package type '{type}'.",
  memberUnknown: "The virtual repository member '{key}' does not exist.",
  memberVirtual: "'{key}' is a virtual repository; members must be local or remote repositories.",
  memberType: "'{key}' holds {memberType} packages, not {type}.",
  deployTargetNotMember: "The default deployment repository '{key}' must be a local member of the virtual repository.",
  classChange: 'The class of a repository (local, remote, virtual) cannot be changed.',
  usedByVirtual: "Repository '{key}' is a member of the virtual repository '{virtual}'.",
  inProject: "Repository '{key}' belongs to project '{project}': take it out of the project first.",
  confirmKey: "Type the repository key '{key}' to confirm the deletion.",
  socketTimeout: 'The socket timeout is between 1,000 and 600,000 milliseconds.',
  remoteOffline:
    "The remote repository '{key}' is offline: it serves only what it has cached, and '{path}' is not cached.",
  overQuota:
    "Repository '{key}' is over its storage quota: {used} stored, {size} more would pass the quota of {quota}.",
  testNotRemote: 'Only a remote repository can be tested: give its URL.',
} as const;

/** Fills `{name}` placeholders of a message. */
export function formatMessage(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}

export const REPOSITORY_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const patternList = z.string().max(4096);

/**
 * A repository as the Artifactory-compatible REST API reads and writes it
 * (`GET/PUT/POST /artifactory/api/repositories/{key}`).
 */
export const repositoryConfigSchema = z.object({
  key: z.string().regex(REPOSITORY_KEY_PATTERN, REPOSITORY_MESSAGES.keyFormat),
  rclass: z.enum(REPOSITORY_CLASSES),
  packageType: z.string().min(1).default('generic'),
  description: z.string().max(2000).default(''),
  notes: z.string().max(4000).default(''),
  includesPattern: patternList.default('**/*'),
  excludesPattern: patternList.default(''),
  repoLayoutRef: z.string().max(64).default(''),
  url: z.string().max(2048).default(''),
  username: z.string().max(256).default(''),
  password: z.string().max(1024).optional(),
  /** Remote repositories: the HTTP proxy to go through; empty for the default proxy, if one is set. */
  proxy: z.string().max(64).default(''),
  /** Remote repositories: the alias of the client certificate presented to the upstream; empty for none. */
  clientTlsCertificate: z.string().max(64).default(''),
  /** Remote repositories: serve only what is cached, never asking the upstream. */
  offline: z.boolean().default(false),
  /** Remote repositories: how long the upstream gets to connect and to send each part of an answer. */
  socketTimeoutMillis: z
    .number()
    .int()
    .min(1_000, REPOSITORY_MESSAGES.socketTimeout)
    .max(600_000, REPOSITORY_MESSAGES.socketTimeout)
    .default(15_000),
  /** Local repositories: the most bytes their files may take (0: no limit). */
  storageQuotaBytes: z.number().int().min(0).default(0),
  repositories: z.array(z.string()).default([]),
  defaultDeploymentRepo: z.string().default(''),
  /**
   * Remote repositories: seconds a cached metadata file (an npm packument, a simple index) stays
   * fresh before the upstream is asked again. Package files never expire.
   */
  metadataRetrievalCachePeriodSecs: z.number().int().min(0).max(31_536_000).default(7200),
  /**
   * Maven local repositories: `client-checksums` refuses a deployed checksum file that disagrees
   * with its file; `server-generated-checksums` ignores what clients send.
   */
  checksumPolicyType: z.enum(['client-checksums', 'server-generated-checksums']).default('client-checksums'),
  /** Maven: deploy a POM whose groupId, artifactId and version do not match its path. */
  suppressPomConsistencyChecks: z.boolean().default(false),
  /** Maven: a release file already stored may be deployed again (off: refused with 409). */
  redeployReleases: z.boolean().default(true),
});
export type RepositoryConfigInput = z.input<typeof repositoryConfigSchema>;
export type RepositoryConfig = z.output<typeof repositoryConfigSchema>;

/** A repository as answered: the password is never sent back. */
export const repositoryAnswerSchema = repositoryConfigSchema.omit({ password: true }).extend({
  packageType: z.string(),
  hasPassword: z.boolean(),
  created: z.string(),
  lastModified: z.string(),
});
export type RepositoryAnswer = z.infer<typeof repositoryAnswerSchema>;

/** What a reader who is no administrator is told of a repository, as Artifactory answers non-admins. */
export const repositoryReaderAnswerSchema = z.object({
  key: z.string(),
  rclass: z.enum(['local', 'remote', 'virtual']),
  packageType: z.string(),
  description: z.string(),
  repoLayoutRef: z.string(),
  url: z.string().optional(),
  repositories: z.array(z.string()).optional(),
  defaultDeploymentRepo: z.string().optional(),
});
export type RepositoryReaderAnswer = z.infer<typeof repositoryReaderAnswerSchema>;

/** One line of `GET /artifactory/api/repositories`. */
export const repositoryListItemSchema = z.object({
  key: z.string(),
  type: z.enum(['LOCAL', 'REMOTE', 'VIRTUAL']),
  description: z.string(),
  url: z.string(),
  packageType: z.string(),
});
export type RepositoryListItem = z.infer<typeof repositoryListItemSchema>;

export const repositoryListQuerySchema = z.object({
  type: z.enum(['local', 'remote', 'virtual']).optional(),
  packageType: z.string().optional(),
});

/** How a remote repository's upstream answered the console's Test. */
export const remoteTestAnswerSchema = z.object({
  ok: z.boolean(),
  /** The upstream's HTTP status; null when it could not be reached. */
  status: z.number().int().nullable(),
  message: z.string(),
});
export type RemoteTestAnswer = z.infer<typeof remoteTestAnswerSchema>;

/** A remote repository's state: offline by choice, and how its upstream answered last (null: not asked yet). */
export const remoteStateSchema = z.object({
  offline: z.boolean(),
  reachable: z.boolean().nullable(),
  since: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type RemoteState = z.infer<typeof remoteStateSchema>;

/** One row of the console's repositories list, with usage figures. */
export const repositorySummarySchema = z.object({
  key: z.string(),
  rclass: z.enum(REPOSITORY_CLASSES),
  packageType: z.string(),
  description: z.string(),
  url: z.string(),
  repositories: z.array(z.string()),
  files: z.number().int(),
  usedSpace: z.number().int(),
  lastModified: z.string(),
  /** The project the repository belongs to, if any. */
  projectKey: z.string().nullable(),
});
export type RepositorySummary = z.infer<typeof repositorySummarySchema>;

export const quickCreateBodySchema = z.object({
  packageType: z.string().min(1, ERROR_MESSAGES.mandatory),
  prefix: z
    .string()
    .min(1, ERROR_MESSAGES.mandatory)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,40}$/, REPOSITORY_MESSAGES.keyFormat),
  remoteUrl: z.string().max(2048).default(''),
});
export type QuickCreateBody = z.input<typeof quickCreateBodySchema>;

/** A repository layout: how a package type lays out its paths. */
export const repositoryLayoutSchema = z.object({
  name: z.string(),
  artifactPathPattern: z.string(),
  distinctiveDescriptorPathPattern: z.boolean(),
  descriptorPathPattern: z.string(),
  folderIntegrationRevisionRegExp: z.string(),
  fileIntegrationRevisionRegExp: z.string(),
});
export type RepositoryLayout = z.infer<typeof repositoryLayoutSchema>;

const SNAPSHOT = 'SNAPSHOT';
const TIMESTAMP = '(?:[0-9]{8}.[0-9]{6})-(?:[0-9]+)';

/** The built-in layouts and the package types that default to each. */
export const REPOSITORY_LAYOUTS: RepositoryLayout[] = [
  {
    name: 'maven-2-default',
    artifactPathPattern:
      '[orgPath]/[module]/[baseRev](-[folderItegRev])/[module]-[baseRev](-[fileItegRev])(-[classifier]).[ext]',
    distinctiveDescriptorPathPattern: true,
    descriptorPathPattern:
      '[orgPath]/[module]/[baseRev](-[folderItegRev])/[module]-[baseRev](-[fileItegRev])(-[classifier]).pom',
    folderIntegrationRevisionRegExp: SNAPSHOT,
    fileIntegrationRevisionRegExp: `${SNAPSHOT}|${TIMESTAMP}`,
  },
  {
    name: 'ivy-default',
    artifactPathPattern:
      '[org]/[module]/[baseRev](-[folderItegRev])/[type]s/[module](-[classifier])-[baseRev](-[fileItegRev]).[ext]',
    distinctiveDescriptorPathPattern: true,
    descriptorPathPattern: '[org]/[module]/[baseRev](-[folderItegRev])/[type]s/ivy-[baseRev](-[fileItegRev]).xml',
    folderIntegrationRevisionRegExp: '\\d{14}',
    fileIntegrationRevisionRegExp: '\\d{14}',
  },
  {
    name: 'gradle-default',
    artifactPathPattern:
      '[org]/[module]/[baseRev](-[folderItegRev])/[module]-[baseRev](-[fileItegRev])(-[classifier]).[ext]',
    distinctiveDescriptorPathPattern: true,
    descriptorPathPattern: '[org]/[module]/ivy-[baseRev](-[fileItegRev]).xml',
    folderIntegrationRevisionRegExp: '\\d{14}',
    fileIntegrationRevisionRegExp: '\\d{14}',
  },
  {
    name: 'npm-default',
    artifactPathPattern: '[orgPath]/[module]/[module]-[baseRev](-[fileItegRev]).tgz',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'nuget-default',
    artifactPathPattern: '[orgPath]/[module]/[module].[baseRev](-[fileItegRev]).nupkg',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'go-default',
    artifactPathPattern: '[orgPath]/[module]/@v/v[refs].zip',
    distinctiveDescriptorPathPattern: true,
    descriptorPathPattern: '[orgPath]/[module]/@v/v[refs].mod',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'bower-default',
    artifactPathPattern: '[orgPath]/[module]/[module]-[baseRev](-[fileItegRev]).[ext]',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'composer-default',
    artifactPathPattern: '[orgPath]/[module]/[module]-[baseRev](-[fileItegRev]).[ext]',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'conan-default',
    artifactPathPattern:
      '[org]/[module]/[baseRev]/[channel<[^/]+>]/[folderItegRev]/(package/[package_id<[^/]+>]/[fileItegRev]/)?[remainder<(?:.+)>]',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '[^/]+',
    fileIntegrationRevisionRegExp: '[^/]+',
  },
  {
    name: 'puppet-default',
    artifactPathPattern: '[orgPath]/[module]/[orgPath]-[module]-[baseRev].tar.gz',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
  {
    name: 'sbt-default',
    artifactPathPattern:
      '[org]/[module]/(scala_[scalaVersion<.+>])/(sbt_[sbtVersion<.+>])/[baseRev]/[type]s/[module](-[classifier]).[ext]',
    distinctiveDescriptorPathPattern: true,
    descriptorPathPattern: '[org]/[module]/(scala_[scalaVersion<.+>])/(sbt_[sbtVersion<.+>])/[baseRev]/[type]s/ivy.xml',
    folderIntegrationRevisionRegExp: '\\d{14}',
    fileIntegrationRevisionRegExp: '\\d{14}',
  },
  {
    name: 'simple-default',
    artifactPathPattern: '[orgPath]/[module]/[module]-[baseRev].[ext]',
    distinctiveDescriptorPathPattern: false,
    descriptorPathPattern: '',
    folderIntegrationRevisionRegExp: '.*',
    fileIntegrationRevisionRegExp: '.*',
  },
];

/** The default layout of a package type. */
export function defaultLayout(packageType: string): string {
  switch (packageType) {
    case 'maven':
      return 'maven-2-default';
    case 'gradle':
      return 'gradle-default';
    case 'ivy':
      return 'ivy-default';
    case 'sbt':
      return 'sbt-default';
    case 'npm':
      return 'npm-default';
    case 'nuget':
      return 'nuget-default';
    case 'go':
      return 'go-default';
    case 'bower':
      return 'bower-default';
    case 'composer':
      return 'composer-default';
    case 'conan':
      return 'conan-default';
    case 'puppet':
      return 'puppet-default';
    default:
      return 'simple-default';
  }
}

/** Deleting a repository with its content: the key typed again, as the confirmation. */
export const deleteRepositoryBodySchema = z.object({ confirmKey: z.string() });

/** How far the deletion of a repository with its content has come. */
export const repositoryDeletionSchema = z.object({
  key: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  files: z.number().int(),
  bytes: z.number(),
  deletedFiles: z.number().int(),
  deletedBytes: z.number(),
  message: z.string().nullable(),
});
export type RepositoryDeletion = z.infer<typeof repositoryDeletionSchema>;
