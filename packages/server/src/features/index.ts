import type { FastifyInstance } from 'fastify';
import {
  artifactsConsoleRoutes,
  artifactsRestRoutes,
  registerArtifactJobs,
  registerClassIndexer,
  type ClassIndexer,
  type DoorPorts,
} from './artifacts/index.js';
import {
  authRoutes,
  clientLoginRoutes,
  clientSignIn,
  signInFlowRoutes,
  webLoginRoutes,
  registerAuthJobs,
} from './auth/index.js';
import { mailRoutes } from './mail/index.js';
import { licenseRestRoutes, licenseRoutes } from './license/index.js';
import { licenseBucketsRoutes } from './license-buckets/index.js';
import {
  appIntegrationsRoutes,
  oauthServerRoutes,
  terraformConsoleRoutes,
  terraformLoginRoutes,
} from './app-integrations/index.js';
import { vcsIntegrationsRoutes } from './vcs-integrations/index.js';
import { repositoriesConsoleRoutes, repositoriesRestRoutes } from './repositories/index.js';
import {
  artifactorySystemRoutes,
  docsRoutes,
  healthRoutes,
  metricsRoutes,
  systemRoutes,
  topologyRoutes,
} from './system/index.js';
import { usersRestRoutes, usersRoutes } from './users/index.js';
import { groupsRestRoutes, groupsRoutes } from './groups/index.js';
import { permissionsRestRoutes, permissionsRoutes } from './permissions/index.js';
import { tokensRestRoutes, tokensRoutes } from './tokens/index.js';
import { securityRoutes } from './security/index.js';
import { projectsRoutes } from './projects/index.js';

import { packagesRoutes, registerCatalogueIndexer, type CatalogueIndexer } from './packages/index.js';
import { searchRestRoutes, searchConsoleRoutes } from './search/index.js';
import { buildsConsoleRoutes, buildsPagesRoutes, buildsRestRoutes } from './builds/index.js';
import { homeRoutes } from './home/index.js';
import { registerWebhookDelivery, webhooksRoutes, type WebhookDelivery } from './webhooks/index.js';
import { logRoutes, publicLogRoutes } from './logs/index.js';
import {
  registerSupportBundles,
  supportCreationRoutes,
  supportNodeRoutes,
  supportRoutes,
  type BundleMaker,
} from './support/index.js';
import { backupRoutes, registerBackups } from './backup/index.js';
import { registerSigning, signingRestRoutes, type SigningKeys } from './signing/index.js';
import { policyRoutes, registerRetention, retentionConsoleRoutes, type Archive } from './retention/index.js';
import { proxiesRoutes } from './proxies/index.js';
import { certificatesRestRoutes, keysRoutes, trustedKeysRestRoutes } from './keys/index.js';
import { onboardingRoutes } from './onboarding/index.js';
import { registerSsh, sshRoutes, type SshService } from './ssh/index.js';
import { directoryAccessRoutes, directoryRoutes, registerDirectory } from './directory/index.js';
import { ssoRoutes } from './sso/index.js';
import { deploymentsRoutes, pairingRoutes, registerDeploymentPolling } from './deployments/index.js';
import { federationMemberRoutes, federationRoutes, registerFederationMember } from './federation/index.js';
import { registerReplications, replicationManifestRoutes, replicationsRoutes } from './replications/index.js';
import { settingsRestRoutes, settingsRoutes } from './settings/index.js';
import { environmentsRoutes, registerReleaseBundles, releaseBundlesRoutes } from './release-bundles/index.js';
import { createScanner, downloadBlock, registerScanning, scanningRoutes, type Scanner } from './scanning/index.js';
import { CONSOLE_API_PREFIX } from '../core/console.plugin.js';

/**
 * What the features make at registration and hand to one another here (a route plugin gets what
 * it needs as its options); answered to the app's builder, where tests reach them too.
 */
export interface FeatureServices {
  signing: SigningKeys;
  ssh: SshService;
  supportBundles: BundleMaker;
  webhooks: WebhookDelivery;
  archive: Archive;
  catalogueIndexer: CatalogueIndexer;
  classIndexer: ClassIndexer;
  scanner: Scanner;
}

/** Every feature of the server, in one list. */
export async function registerFeatures(app: FastifyInstance): Promise<FeatureServices> {
  // what the door takes from other features: the formats reach sign-in (npm login, Docker's token
  // endpoint), the signing keys and the advisories held through it, never those features
  const signing = registerSigning(app);
  const uploads = registerArtifactJobs(app);
  const scanner = createScanner(app);
  app.decorate('doorPorts', {
    clientSignIn,
    metadataSigner: (repoKey: string) => signing.signerFor(repoKey),
    uploads,
    advisories: (ecosystem, packages) => scanner.held(ecosystem, packages),
    downloadBlock: (item) => downloadBlock(app, item),
  } satisfies DoorPorts);
  await app.register(authRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(signInFlowRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(webLoginRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(clientLoginRoutes);
  await app.register(appIntegrationsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(oauthServerRoutes);
  await app.register(terraformLoginRoutes);
  await app.register(terraformConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(vcsIntegrationsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(mailRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(proxiesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(keysRoutes, { prefix: CONSOLE_API_PREFIX, signing });
  await app.register(certificatesRestRoutes);
  await app.register(trustedKeysRestRoutes);
  const ssh = registerSsh(app);
  registerDirectory(app);
  await app.register(directoryRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(directoryAccessRoutes);
  await app.register(ssoRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(pairingRoutes);
  // the console makes pairing tokens under its own API base too
  await app.register(pairingRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(deploymentsRoutes, { prefix: CONSOLE_API_PREFIX });
  registerDeploymentPolling(app);
  registerFederationMember(app);
  await app.register(federationMemberRoutes);
  await app.register(federationMemberRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(federationRoutes, { prefix: CONSOLE_API_PREFIX });
  registerReplications(app);
  await app.register(replicationManifestRoutes);
  await app.register(replicationsRoutes, { prefix: CONSOLE_API_PREFIX });
  registerReleaseBundles(app);
  await app.register(releaseBundlesRoutes);
  await app.register(releaseBundlesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(environmentsRoutes);
  await app.register(environmentsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(sshRoutes, { prefix: CONSOLE_API_PREFIX, ssh });
  await app.register(onboardingRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(settingsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(settingsRestRoutes);
  await app.register(systemRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(docsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(licenseRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(licenseRestRoutes);
  await app.register(licenseBucketsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(licenseBucketsRoutes);
  await app.register(usersRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(groupsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(permissionsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(tokensRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(securityRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(projectsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(repositoriesConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(artifactsConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(packagesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(searchConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(buildsConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(buildsPagesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(homeRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(logRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(publicLogRoutes);
  const supportBundles = registerSupportBundles(app);
  await app.register(backupRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(supportRoutes, { prefix: CONSOLE_API_PREFIX, maker: supportBundles });
  await app.register(supportCreationRoutes, { prefix: CONSOLE_API_PREFIX, maker: supportBundles });
  await app.register(supportCreationRoutes, { maker: supportBundles });
  await app.register(supportNodeRoutes);
  const webhooks = registerWebhookDelivery(app);
  // the Event service API: at its own address for scripts and Terraform, under the console's API base for the console
  await app.register(webhooksRoutes, { prefix: `${CONSOLE_API_PREFIX}/event/api/v1`, sender: webhooks.sender });
  await app.register(webhooksRoutes, { prefix: '/event/api/v1', sender: webhooks.sender });
  await app.register(artifactorySystemRoutes);
  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  await app.register(topologyRoutes, { prefix: '/access/api/v1' });
  await app.register(topologyRoutes, { prefix: `${CONSOLE_API_PREFIX}/access/api/v1` });
  await app.register(repositoriesRestRoutes);
  await app.register(usersRestRoutes);
  await app.register(groupsRestRoutes);
  await app.register(permissionsRestRoutes);
  await app.register(tokensRestRoutes);
  await app.register(artifactsRestRoutes);
  await app.register(searchRestRoutes);
  await app.register(buildsRestRoutes);
  await app.register(signingRestRoutes);
  // after the webhook sender: closing waits for the kernel's runs to end, which stopping the sender lets happen
  const archive = await registerRetention(app);
  registerBackups(app, archive.cold);
  await app.register(policyRoutes('/ui/retention'), { prefix: CONSOLE_API_PREFIX, archive });
  await app.register(policyRoutes('/artifactory/api/retention'), { archive });
  await app.register(retentionConsoleRoutes, { prefix: CONSOLE_API_PREFIX, archive });
  registerAuthJobs(app);
  const catalogueIndexer = registerCatalogueIndexer(app);
  const classIndexer = registerClassIndexer(app);
  registerScanning(app, scanner, catalogueIndexer);
  await app.register(scanningRoutes, { scanner });
  // the console asks for a version's issues under its own API base
  await app.register(scanningRoutes, { prefix: CONSOLE_API_PREFIX, scanner });
  return { signing, ssh, supportBundles, webhooks, archive, catalogueIndexer, classIndexer, scanner };
}
