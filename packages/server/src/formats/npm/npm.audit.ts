import { NPM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest } from '../../core/errors.js';
import { gunzipCapped, type HeldAdvisory, type RepoContent } from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';

/** The two advisory calls `npm audit` makes: the bulk one (npm 7 and later) and the older quick audit. */
export type AuditKind = 'bulk' | 'quick';

const AUDIT_PATHS: Record<AuditKind, string> = {
  bulk: '-/npm/v1/security/advisories/bulk',
  quick: '-/npm/v1/security/audits/quick',
};

/** How large an audit request may be once inflated (a lock file of tens of thousands of packages fits). */
const AUDIT_MAX_BYTES = 32 * 1024 * 1024;

/** One advisory as the bulk call answers it. */
interface BulkAdvisory {
  id: number | string;
  [field: string]: unknown;
}
type BulkAnswer = Record<string, BulkAdvisory[]>;

interface QuickAnswer {
  actions: unknown[];
  advisories: Record<string, { severity?: string; [field: string]: unknown }>;
  muted: unknown[];
  metadata: {
    vulnerabilities: Record<string, number>;
    dependencies: number;
    devDependencies: number;
    optionalDependencies: number;
    totalDependencies: number;
  };
}

const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;

/** The request body npm sent, inflated when it came gzipped (npm gzips the bulk call). */
export function auditBody(body: Buffer | undefined, encoding: string | undefined): string {
  if (!body?.length) throw badRequest('A JSON body is required.');
  let text: string;
  try {
    text = (/gzip/i.test(encoding ?? '') ? gunzipCapped(body, AUDIT_MAX_BYTES) : body).toString('utf8');
    JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON.');
  }
  return text;
}

/** The remote repositories whose upstreams answer for a repository: itself, or a virtual one's remote members. */
async function remotesOf(content: RepoContent, repo: RepositoryRow): Promise<RepositoryRow[]> {
  if (repo.rclass === 'remote') return [repo];
  if (repo.rclass !== 'virtual') return [];
  return (await content.members(repo)).filter((m) => m.rclass === 'remote');
}

function emptyAnswer(kind: AuditKind, request: string): BulkAnswer | QuickAnswer {
  if (kind === 'bulk') return {};
  const dependencies = Object.keys((JSON.parse(request) as { dependencies?: object }).dependencies ?? {}).length;
  return {
    actions: [],
    advisories: {},
    muted: [],
    metadata: {
      vulnerabilities: Object.fromEntries(SEVERITIES.map((s) => [s, 0])),
      dependencies,
      devDependencies: 0,
      optionalDependencies: 0,
      totalDependencies: dependencies,
    },
  };
}

/** Several upstreams' answers as one: advisories of a package joined (each once, by id). */
function merge(kind: AuditKind, answers: unknown[], request: string): BulkAnswer | QuickAnswer {
  if (kind === 'bulk') {
    const merged: BulkAnswer = {};
    for (const answer of answers as BulkAnswer[]) {
      for (const [name, advisories] of Object.entries(answer ?? {})) {
        const into = (merged[name] ??= []);
        for (const advisory of advisories) if (!into.some((a) => a.id === advisory.id)) into.push(advisory);
      }
    }
    return merged;
  }
  const merged = emptyAnswer('quick', request) as QuickAnswer;
  for (const answer of answers as QuickAnswer[]) {
    merged.actions.push(...(answer.actions ?? []));
    merged.muted.push(...(answer.muted ?? []));
    Object.assign(merged.advisories, answer.advisories ?? {});
    if (answer.metadata) merged.metadata = { ...answer.metadata, vulnerabilities: merged.metadata.vulnerabilities };
  }
  merged.metadata.vulnerabilities = Object.fromEntries(SEVERITIES.map((s) => [s, 0]));
  for (const advisory of Object.values(merged.advisories)) {
    const severity = advisory.severity ?? 'info';
    merged.metadata.vulnerabilities[severity] = (merged.metadata.vulnerabilities[severity] ?? 0) + 1;
  }
  return merged;
}

/** The versions of each package an audit request names: the bulk call's map, or the quick call's tree. */
function packagesOf(kind: AuditKind, request: string): Record<string, string[]> {
  const body = JSON.parse(request) as unknown;
  if (kind === 'bulk') {
    const asked: Record<string, string[]> = {};
    for (const [name, versions] of Object.entries((body ?? {}) as Record<string, unknown>)) {
      if (Array.isArray(versions)) asked[name] = versions.filter((v): v is string => typeof v === 'string');
    }
    return asked;
  }
  const asked: Record<string, Set<string>> = {};
  const walk = (dependencies: unknown) => {
    for (const [name, dependency] of Object.entries((dependencies ?? {}) as Record<string, unknown>)) {
      const { version, dependencies: nested } = (dependency ?? {}) as { version?: unknown; dependencies?: unknown };
      if (typeof version === 'string') (asked[name] ??= new Set()).add(version);
      walk(nested);
    }
  };
  walk((body as { dependencies?: unknown } | null)?.dependencies);
  return Object.fromEntries(Object.entries(asked).map(([name, versions]) => [name, [...versions]]));
}

/** An advisory's affected versions as an npm range (`>=1.0.0 <1.2.3 || 2.0.0`), from its OSV ranges and list. */
export function npmRange(advisory: Pick<HeldAdvisory, 'ranges' | 'versions'>): string {
  const parts: string[] = [];
  for (const range of advisory.ranges) {
    let from: string | undefined;
    let open = false;
    const bound = (low: string | undefined, high: string) => parts.push(low && low !== '0' ? `>=${low} ${high}` : high);
    for (const event of range.events) {
      if (event.introduced !== undefined) {
        from = event.introduced;
        open = true;
      } else if (open && event.fixed !== undefined) {
        bound(from, `<${event.fixed}`);
        open = false;
      } else if (open && event.last_affected !== undefined) {
        bound(from, `<=${event.last_affected}`);
        open = false;
      } else if (open && event.limit !== undefined && event.limit !== '*') {
        bound(from, `<${event.limit}`);
        open = false;
      }
    }
    if (open) parts.push(from && from !== '0' ? `>=${from}` : '*');
  }
  parts.push(...advisory.versions);
  return parts.length ? parts.join(' || ') : '*';
}

const NPM_SEVERITY: Record<string, string> = { Critical: 'critical', High: 'high', Medium: 'moderate', Low: 'low' };

/** The deployment's own advisories as the audit call answers them. */
function heldAnswer(kind: AuditKind, held: HeldAdvisory[], request: string): BulkAnswer | QuickAnswer {
  if (kind === 'bulk') {
    const answer: BulkAnswer = {};
    for (const advisory of held) {
      (answer[advisory.name] ??= []).push({
        id: advisory.id,
        url: advisory.url,
        title: advisory.summary || advisory.id,
        severity: NPM_SEVERITY[advisory.severity] ?? 'info',
        vulnerable_versions: npmRange(advisory),
        cwe: [],
        cvss: { score: 0, vectorString: null },
      });
    }
    return answer;
  }
  const answer = emptyAnswer('quick', request) as QuickAnswer;
  const asked = packagesOf('quick', request);
  for (const advisory of held) {
    answer.advisories[`${advisory.id}:${advisory.name}`] = {
      id: advisory.id,
      title: advisory.summary || advisory.id,
      module_name: advisory.name,
      severity: NPM_SEVERITY[advisory.severity] ?? 'info',
      vulnerable_versions: npmRange(advisory),
      cves: advisory.cves,
      url: advisory.url,
      findings: (asked[advisory.name] ?? []).map((version) => ({ version, paths: [advisory.name] })),
    };
  }
  return answer;
}

/**
 * `npm audit` through a repository: the advisories this deployment holds (imported OSV records),
 * and those the upstream registries of the repository's remote members (a remote one: its own)
 * answer, merged; a repository with no remote answers with the deployment's alone. An upstream that cannot answer fails the audit (502, naming it): an
 * audit gate must never pass because nobody was asked.
 */
export async function auditThrough(
  content: RepoContent,
  repo: RepositoryRow,
  kind: AuditKind,
  request: string,
): Promise<BulkAnswer | QuickAnswer> {
  const remotes = await remotesOf(content, repo);
  // what this deployment knows itself, beside what the upstreams say
  const held = heldAnswer(kind, await content.advisories('npm', packagesOf(kind, request)), request);
  const answers = await Promise.all(
    remotes.map(async (remote) => {
      let response: Response;
      try {
        response = await content.upstreamRequest(remote, AUDIT_PATHS[kind], {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: request,
        });
      } catch (error) {
        const cause = (error as { cause?: Error }).cause;
        throw new HttpError(
          502,
          fill(NPM_MESSAGES.auditUnavailable, { key: remote.key, reason: cause?.message ?? (error as Error).message }),
        );
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new HttpError(
          502,
          fill(NPM_MESSAGES.auditUnavailable, { key: remote.key, reason: `the upstream answered ${response.status}` }),
        );
      }
      return (await response.json()) as unknown;
    }),
  );
  return merge(kind, [held, ...answers], request);
}
