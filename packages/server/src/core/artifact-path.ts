import { ARTIFACT_MESSAGES, type Properties } from '@arca/contracts';
import { badRequest } from './errors.js';

const MAX_PATH = 1024;
const MAX_NAME = 255;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const ENCODED_SEPARATOR_OR_DOT = /%(2e|2f|5c)/i;

function checkSegment(segment: string): void {
  if (CONTROL.test(segment)) throw badRequest(ARTIFACT_MESSAGES.pathNul);
  if (segment === '.' || segment === '..' || segment.includes('/') || segment.includes('\\')) {
    throw badRequest(ARTIFACT_MESSAGES.pathTraversal);
  }
  if (ENCODED_SEPARATOR_OR_DOT.test(segment)) throw badRequest(ARTIFACT_MESSAGES.pathTraversal);
  if (segment.length > MAX_NAME) throw badRequest(ARTIFACT_MESSAGES.nameTooLong);
}

function join(segments: string[]): string {
  const joined = segments.join('/');
  if (joined.length > MAX_PATH) throw badRequest(ARTIFACT_MESSAGES.pathTooLong);
  return joined;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badRequest(ARTIFACT_MESSAGES.pathTraversal);
  }
}

/**
 * Normalises an already-decoded item path: no leading or trailing slash, empty segments dropped.
 * Refuses '.', '..', backslashes, control characters (NUL included), still-encoded dots or
 * separators, names over 255 and paths over 1024 characters.
 */
export function normalizeItemPath(path: string): string {
  const segments = path.split('/').filter((s) => s.length > 0);
  segments.forEach(checkSegment);
  return join(segments);
}

/**
 * Parses the percent-encoded remainder of an `/artifactory/{repo}/…` URL: decodes each segment
 * once, checks it as `normalizeItemPath` does, and collects `;key=value` matrix parameters as
 * properties (a value list may be comma-separated).
 */
export function parseRequestPath(raw: string): { path: string; properties: Properties } {
  const properties: Properties = {};
  const segments: string[] = [];
  for (const rawSegment of raw.split('/')) {
    const [name = '', ...params] = rawSegment.split(';');
    for (const param of params) {
      if (!param) continue;
      const eq = param.indexOf('=');
      const key = decode(eq < 0 ? param : param.slice(0, eq)).trim();
      const values =
        eq < 0
          ? ['']
          : param
              .slice(eq + 1)
              .split(',')
              .map(decode);
      if (key) properties[key] = [...(properties[key] ?? []), ...values];
    }
    if (!name) continue;
    const decoded = decode(name);
    checkSegment(decoded);
    segments.push(decoded);
  }
  return { path: join(segments), properties };
}

export function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '' : path.slice(0, at);
}

export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Every ancestor folder of a path, outermost first ('a/b/c' → ['a', 'a/b']). */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/**
 * The folder a file lies in (`a/b/` of `a/b/c.jar`), as the bounds of the paths under it — from the
 * folder itself up to, not including, the folder's name followed by the character after `/` — and a
 * test of whether a path lies directly in it. Undefined for a file at a repository's root.
 */
export function folderOfFile(path: string): { from: string; below: string; holds: (p: string) => boolean } | undefined {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return undefined;
  const folder = path.slice(0, slash + 1);
  return {
    from: folder,
    below: `${path.slice(0, slash)}0`,
    holds: (p) => p.startsWith(folder) && !p.slice(folder.length).includes('/'),
  };
}
