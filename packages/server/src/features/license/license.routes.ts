import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  LICENSE_EDITION_LABELS,
  LICENSE_MESSAGES,
  installLicenseBodySchema,
  licenseInfoSchema,
  restInstallLicensesSchema,
  restLicensesSchema,
  type LicenseEdition,
  type LicenseInfo,
} from '@arca/contracts';
import { audit } from '../../core/audit.js';
import { isOnline, nodeRows } from '../../core/nodes.js';
import { countProjects } from '../projects/index.js';

const installer = (request: FastifyRequest) =>
  request.principal.kind === 'user' ? request.principal.user.name : 'anonymous';

async function audited(request: FastifyRequest, info: LicenseInfo, count: number): Promise<void> {
  const by = installer(request);
  request.server.accessLog.info({ edition: info.edition, licensee: info.licensee, count, by }, 'licence installed');
  await audit(request, {
    category: 'license',
    action: 'install',
    target: info.id ?? info.edition,
    after: { edition: info.edition, licensee: info.licensee, id: info.id, expiresAt: info.expiresAt, count },
  });
}

/** The licences page: the licence in force, and installing another. */
export const licenseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/license', { config: { access: 'admin' }, schema: { response: { 200: licenseInfoSchema } } }, () =>
    app.license.current(),
  );

  app.post(
    '/ui/license',
    { config: { access: 'admin' }, schema: { body: installLicenseBodySchema, response: { 200: licenseInfoSchema } } },
    async (request) => {
      const info = await app.license.install(request.body.licenseKey, installer(request));
      await audited(request, info, 1);
      return info;
    },
  );
};

const validThrough = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/**
 * Artifactory's licence calls: what a management deployment installs licences with (its service
 * token is an administrator's) and reads them back from — one licence per node, as in an HA cluster.
 */
export const licenseRestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/artifactory/api/system/license', { config: { access: 'admin' } }, async () => {
    const info = await app.license.current();
    return {
      type: LICENSE_EDITION_LABELS[info.edition],
      validThrough: info.expiresAt ? validThrough(Date.parse(info.expiresAt)) : '',
      licensedTo: info.licensee ?? '',
    };
  });

  app.get(
    '/artifactory/api/system/licenses',
    { config: { access: 'admin' }, schema: { response: { 200: restLicensesSchema } } },
    async () => {
      const now = Date.now();
      const [rows, nodes, projects] = await Promise.all([
        app.license.inForce(),
        nodeRows(app.db),
        countProjects(app.db),
      ]);
      const online = nodes.filter((node) => isOnline(node, now));
      return {
        licenses: rows.map((row, i) => ({
          type: LICENSE_EDITION_LABELS[row.edition as LicenseEdition] ?? row.edition,
          validThrough: validThrough(row.expires_at),
          licensedTo: row.licensee,
          licenseHash: row.id,
          nodeId: online[i]?.node_id ?? '',
          nodeUrl: online[i]?.address ?? '',
          expired: row.expires_at !== null && row.expires_at <= now,
        })),
        arca: { nodes: Math.max(online.length, 1), projects, ids: rows.map((r) => r.id) },
      };
    },
  );

  app.post(
    '/artifactory/api/system/licenses',
    { config: { access: 'admin' }, schema: { body: restInstallLicensesSchema } },
    async (request) => {
      const body = request.body;
      const keys = Array.isArray(body)
        ? body.map((l) => l.licenseKey)
        : 'licenses' in body
          ? body.licenses.map((l) => l.licenseKey)
          : [body.licenseKey];
      const info = await app.license.installMany(keys, installer(request));
      await audited(request, info, keys.length);
      return { status: 200, message: LICENSE_MESSAGES.installedRest, count: info.count };
    },
  );
};
