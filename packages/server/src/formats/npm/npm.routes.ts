import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RepositoryRow } from '../../db/schema.js';
import {
  NPM_ABBREVIATED_TYPE,
  NPM_MAX_PUBLISH_BYTES,
  NPM_MESSAGES,
  WEB_LOGIN_MESSAGES,
  WEB_LOGIN_RETRY_AFTER_SECONDS,
  formatMessage as fill,
} from '@arca/contracts';
import { HttpError, badRequest, errorBody, notFound } from '../../core/errors.js';
import { repoContent } from '../../features/artifacts/index.js';
import { baseUrlOf } from '../../core/base-url.js';
import { NpmPackages, checkName } from './npm.service.js';
import { present, tarballPath, type Packument } from './npm.packument.js';
import { auditBody, auditThrough, type AuditKind } from './npm.audit.js';
import { bufferedBody, restOfPath } from '../route-schemas.js';

const PREFIX = '/artifactory/api/npm/';

/** What an address under `/artifactory/api/npm/{repoKey}/` asks for. */
type NpmAddress =
  | { kind: 'ping' | 'whoami' | 'search' | 'webLogin' | 'webLoginDone' }
  | { kind: 'audit'; audit: AuditKind }
  | { kind: 'login'; user: string }
  | { kind: 'tags'; name: string; tag?: string }
  | { kind: 'packument'; name: string }
  | { kind: 'version'; name: string; version: string }
  | { kind: 'tarball'; name: string; file: string }
  | { kind: 'unknown' };

const TARBALL_FILE = /^[A-Za-z0-9][A-Za-z0-9._~+-]*\.tgz$/;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badRequest(fill(NPM_MESSAGES.badName, { name: text, reason: 'it is not URL-encoded properly' }));
  }
}

/** Splits `[@scope/]name[/rest…]` (the scope's slash may be sent as %2f) into the name and the rest. */
function nameAndRest(segments: string[]): { name: string; rest: string[] } {
  const first = decode(segments[0] ?? '');
  if (first.startsWith('@') && !first.includes('/') && segments.length > 1) {
    return { name: `${first}/${decode(segments[1]!)}`, rest: segments.slice(2).map(decode) };
  }
  return { name: first, rest: segments.slice(1).map(decode) };
}

export function parseAddress(rest: string): NpmAddress {
  const segments = rest.split('/');
  if (segments[0] === '-') {
    const [, what, ...more] = segments;
    if (what === 'ping' && !more.length) return { kind: 'ping' };
    if (what === 'whoami' && !more.length) return { kind: 'whoami' };
    if (what === 'v1' && more[0] === 'search' && more.length === 1) return { kind: 'search' };
    if (what === 'v1' && more[0] === 'login' && more.length === 1) return { kind: 'webLogin' };
    if (what === 'v1' && more[0] === 'done' && more.length === 1) return { kind: 'webLoginDone' };
    if (what === 'npm' && more.join('/') === 'v1/security/advisories/bulk') return { kind: 'audit', audit: 'bulk' };
    if (what === 'npm' && more.join('/') === 'v1/security/audits/quick') return { kind: 'audit', audit: 'quick' };
    if (what === 'user' && more.length === 1 && decode(more[0]!).startsWith('org.couchdb.user:')) {
      return { kind: 'login', user: decode(more[0]!).slice('org.couchdb.user:'.length) };
    }
    if (what === 'package') {
      const at = more.indexOf('dist-tags');
      if (at < 1 || more.length > at + 2) return { kind: 'unknown' };
      const { name } = nameAndRest(more.slice(0, at));
      return { kind: 'tags', name, ...(more[at + 1] ? { tag: decode(more[at + 1]!) } : {}) };
    }
    return { kind: 'unknown' };
  }
  const { name, rest: tail } = nameAndRest(segments);
  // '-rev/{rev}' closes CouchDB-style writes; the revision itself is not needed (writes are atomic)
  const withoutRev = tail.length >= 2 && tail[tail.length - 2] === '-rev' ? tail.slice(0, -2) : tail;
  if (withoutRev.length === 0) return { kind: 'packument', name };
  if (withoutRev.length === 2 && withoutRev[0] === '-' && TARBALL_FILE.test(withoutRev[1]!)) {
    return { kind: 'tarball', name, file: withoutRev[1]! };
  }
  if (withoutRev.length === 1 && withoutRev[0] !== '-') return { kind: 'version', name, version: withoutRev[0]! };
  return { kind: 'unknown' };
}

/** The repository key and what is asked of it, from the raw URL (`%2f` in scoped names kept apart). */
function addressOf(request: FastifyRequest): { repoKey: string; address: NpmAddress } {
  const pathname = (request.raw.url ?? '').split('?')[0]!.slice(PREFIX.length);
  const slash = pathname.indexOf('/');
  const repoKey = decode(slash < 0 ? pathname : pathname.slice(0, slash));
  if (!repoKey) throw notFound();
  const rest = slash < 0 ? '' : pathname.slice(slash + 1);
  return { repoKey, address: rest ? parseAddress(rest) : { kind: 'unknown' } };
}

const registryOf = (request: FastifyRequest, repoKey: string) =>
  `${baseUrlOf(request)}${PREFIX}${encodeURIComponent(repoKey)}`;

/** A JSON body as the schema reads it; a body that is missing, not JSON or not of its shape is refused with `message`. */
function parseJson<T>(body: Buffer | undefined, schema: z.ZodType<T>, message: string): T {
  if (!body?.length) throw badRequest('A JSON body is required.');
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badRequest(message);
  return parsed.data;
}

/** What `npm login` sends (CouchDB's user document). */
const loginBody = z.looseObject({ name: z.unknown().optional(), password: z.unknown().optional() });
/** What npm sends to publish (one version with its tarball attached) or to change a packument. */
const sentPackument = z.looseObject({
  versions: z.record(z.string(), z.unknown()),
  _attachments: z.record(z.string(), z.unknown()).optional(),
});
/** What `npm login --auth-type=web` sends: the machine's name, by older npm versions. */
const webLoginBody = z.looseObject({ hostname: z.unknown().optional() });
/** The rest of an npm address: the repository key, then the package and what of it. */
const params = restOfPath;

/**
 * The npm registry protocol at `/artifactory/api/npm/{repoKey}/`, as npm, pnpm and yarn speak it
 * to Artifactory: packuments (full and abbreviated), tarballs, publish, dist-tags, deprecate,
 * unpublish, search, login, whoami and ping. Every read and write goes through the door.
 */
export async function npmRoutes(app: FastifyInstance): Promise<void> {
  // npm, pnpm and yarn print an error answer's `error` (CouchDB's field): it carries the message too
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith('{"errors"')) return payload;
    try {
      const body = JSON.parse(payload) as { errors?: { message?: string }[] };
      return JSON.stringify({ ...body, error: body.errors?.[0]?.message });
    } catch {
      return payload;
    }
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: NPM_MAX_PUBLISH_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  const typed = app.withTypeProvider<ZodTypeProvider>();
  app.route({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}*`,
    config: { access: 'public' },
    schema: {
      summary: 'The npm registry: packuments (full or abbreviated), tarballs, dist-tags, search, whoami, ping',
      params,
      querystring: z.looseObject({
        text: z.string().optional(),
        size: z.string().optional(),
        from: z.string().optional(),
      }),
    },
    handler: async (request, reply) => {
      const { repoKey, address } = addressOf(request);
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      const packages = new NpmPackages(content);
      switch (address.kind) {
        case 'ping':
          return {};
        case 'whoami':
          if (request.principal.kind !== 'user') {
            throw new HttpError(
              401,
              fill(NPM_MESSAGES.loginRequired, { registry: `${registryOf(request, repoKey)}/` }),
            );
          }
          return { username: request.principal.user.name };
        case 'search':
          return search(request, packages, repo);
        case 'webLoginDone': {
          const doneId = (request.query as Record<string, string | undefined>).sessionId ?? '';
          const outcome = await content.signIn.pollWebLogin(doneId);
          if (outcome === 'pending') {
            return reply.status(202).header('Retry-After', String(WEB_LOGIN_RETRY_AFTER_SECONDS)).send({});
          }
          return { token: await content.signIn.issueToken(outcome, 'npm login (web)') };
        }
        case 'tags':
          checkName(address.name, false);
          return packages.tags(repo, address.name);
        case 'packument': {
          checkName(address.name, false);
          const abbreviated = (request.headers.accept ?? '').includes(NPM_ABBREVIATED_TYPE);
          const answer = await packages.answer(repo, address.name, registryOf(request, repo.key), abbreviated);
          if (!answer) throw notFound(NPM_MESSAGES.notFound);
          reply.type(abbreviated ? NPM_ABBREVIATED_TYPE : 'application/json').header('ETag', answer.etag);
          if (request.headers['if-none-match'] === answer.etag) return reply.status(304).send();
          return reply.send(answer.body);
        }
        case 'version': {
          checkName(address.name, false);
          const doc = await packages.packument(repo, address.name);
          if (!doc) throw notFound(NPM_MESSAGES.notFound);
          const version = doc['dist-tags'][address.version] ?? address.version;
          const manifest = doc.versions[version];
          if (!manifest) throw notFound(fill(NPM_MESSAGES.noSuchVersion, { name: doc.name, version: address.version }));
          const one = present({ ...doc, versions: { [version]: manifest } }, registryOf(request, repo.key), false);
          return (one as Packument).versions[version];
        }
        case 'tarball': {
          checkName(address.name, false);
          const found = await content.resolve(repo, tarballPath(address.name, address.file));
          if (!found || found.item.folder === 1) throw notFound(NPM_MESSAGES.notFound);
          return content.send(reply, found.item);
        }
        default:
          throw notFound(NPM_MESSAGES.notFound);
      }
    },
  });

  const put = {
    summary: 'Publishes or changes a package, sets a dist-tag, or logs in (`npm login`)',
    params,
    body: bufferedBody,
  };
  typed.put(`${PREFIX}*`, { config: { access: 'public' }, schema: put }, async (request, reply) => {
    const { repoKey, address } = addressOf(request);
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    const packages = new NpmPackages(content);
    switch (address.kind) {
      case 'login': {
        const body = parseJson(request.body, loginBody, NPM_MESSAGES.loginFailed);
        const name = typeof body.name === 'string' ? body.name : address.user;
        if (typeof body.password !== 'string') throw new HttpError(401, NPM_MESSAGES.loginFailed);
        const user = await content.signIn.password(name, body.password);
        // the password alone is not enough for a user with a second factor: npm then asks for the
        // authenticator's code (`WWW-Authenticate: OTP`, sent back as `npm-otp`), or the user
        // signs in through the browser (npm login --auth-type=web)
        if (user.mfa_enrolled_at !== null) {
          const otp = request.headers['npm-otp'];
          if (typeof otp !== 'string' || !otp) {
            const message = fill(WEB_LOGIN_MESSAGES.mfaNeedsWeb, { registry: `${registryOf(request, repoKey)}/` });
            return reply.status(401).header('WWW-Authenticate', 'OTP').send(errorBody(401, message));
          }
          await content.signIn.secondFactor(user, otp);
        }
        const token = await content.signIn.issueToken(user, 'npm login');
        return reply.status(201).send({ ok: true, id: `org.couchdb.user:${user.name}`, token });
      }
      case 'tags': {
        if (!address.tag) throw notFound(NPM_MESSAGES.notFound);
        checkName(address.name, false);
        const version = parseJson(
          request.body,
          z.string(),
          'The body is the version the tag points at, as a JSON string.',
        );
        return reply.status(201).send(await packages.setTag(repo.key, address.name, address.tag, version));
      }
      case 'packument': {
        // the service checks each field it uses: the names, the one version, the attachment
        const body = parseJson(request.body, sentPackument, 'The body is not a package document.') as Packument & {
          _attachments?: Record<string, unknown>;
        };
        if (body._attachments && Object.keys(body._attachments).length) {
          const publisher =
            request.principal.kind === 'user'
              ? { name: request.principal.user.name, email: request.principal.user.email ?? '' }
              : { name: 'anonymous', email: '' };
          const doc = await packages.publish(repo, address.name, body, publisher);
          return reply.status(201).send({ ok: true, id: address.name, rev: doc._rev, success: true });
        }
        const doc = await packages.update(repo.key, address.name, body);
        return reply.status(201).send({ ok: true, id: address.name, rev: doc._rev });
      }
      default:
        throw notFound(NPM_MESSAGES.notFound);
    }
  });

  // npm's web login: the client gets where to send its user and where to wait for the token
  const post = { summary: "Audits dependencies (`npm audit`), or opens npm's web login", params, body: bufferedBody };
  typed.post(`${PREFIX}*`, { config: { access: 'public' }, schema: post }, async (request, reply) => {
    const { repoKey, address } = addressOf(request);
    if (address.kind === 'audit') {
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      const body = auditBody(request.body, request.headers['content-encoding']);
      return reply.send(await auditThrough(content, repo, address.audit, body));
    }
    if (address.kind !== 'webLogin') throw notFound(NPM_MESSAGES.notFound);
    const content = repoContent(request);
    await content.repository(repoKey);
    const body = request.body?.length ? parseJson(request.body, webLoginBody, 'The body is not valid JSON.') : {};
    const agent = String(request.headers['user-agent'] ?? '');
    const { loginId, doneId } = await content.signIn.openWebLogin({
      // npm's user agent starts with `npm/{version}`; older npm versions also send the machine's name
      client: /^npm\/\S+/.exec(agent)?.[0] ?? 'npm',
      hostname: typeof body.hostname === 'string' ? body.hostname : '',
    });
    return reply.send({
      loginUrl: `${baseUrlOf(request)}/ui/web-login/${loginId}`,
      doneUrl: `${registryOf(request, repoKey)}/-/v1/done?sessionId=${doneId}`,
    });
  });

  const remove = { summary: 'Unpublishes a package or a tarball, or removes a dist-tag', params, body: bufferedBody };
  app.delete(`${PREFIX}*`, { config: { access: 'public' }, schema: remove }, async (request, reply) => {
    const { repoKey, address } = addressOf(request);
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    const packages = new NpmPackages(content);
    switch (address.kind) {
      case 'tags':
        if (!address.tag) throw notFound(NPM_MESSAGES.notFound);
        checkName(address.name, false);
        return reply.send(await packages.removeTag(repo.key, address.name, address.tag));
      case 'tarball':
        await packages.removeTarball(repo.key, address.name, address.file);
        return reply.send({ ok: true });
      case 'packument':
        await packages.removePackage(repo.key, address.name);
        return reply.send({ ok: true });
      default:
        throw notFound(NPM_MESSAGES.notFound);
    }
  });
}

/**
 * `npm search` (`/-/v1/search?text=…&size=…&from=…`): packages whose name contains every term,
 * newest data from their packuments, in npm's answer shape.
 */
async function search(request: FastifyRequest, packages: NpmPackages, repo: RepositoryRow) {
  const query = request.query as Record<string, string | undefined>;
  const terms = (query.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const size = Math.min(Math.max(Number(query.size ?? 20) || 20, 1), 250);
  const from = Math.max(Number(query.from ?? 0) || 0, 0);
  const names = (await packages.names(repo)).filter((name) => terms.every((term) => name.toLowerCase().includes(term)));
  const objects = [];
  for (const name of names.slice(from, from + size)) {
    const doc = await packages.packument(repo, name);
    const latest = doc?.versions[doc['dist-tags'].latest ?? ''];
    if (!doc || !latest) continue;
    objects.push({
      package: {
        name,
        version: latest.version,
        description: typeof latest.description === 'string' ? latest.description : '',
        keywords: Array.isArray(latest.keywords) ? latest.keywords : [],
        date: doc.time?.[latest.version] ?? doc.time?.modified,
        links: { npm: `${registryOf(request, repo.key)}/${name}` },
        publisher: {
          username: typeof latest._npmUser === 'object' ? (latest._npmUser as { name?: string }).name : undefined,
        },
        maintainers: Array.isArray(doc.maintainers) ? doc.maintainers : [],
      },
      score: { final: 1, detail: { quality: 1, popularity: 1, maintenance: 1 } },
      searchScore: 1,
    });
  }
  return { objects, total: names.length, time: new Date().toUTCString() };
}
