/**
 * Debian's version order, as dpkg compares versions (`dpkg --compare-versions`, deb-version(7)):
 * `[epoch:]upstream[-revision]`; the epoch as a number, then the upstream version and the
 * revision each in runs of non-digits (a tilde before anything, even the end; letters before
 * other characters) and of digits (as numbers).
 */
export function compareDebianVersions(a: string, b: string): number {
  const x = parseDebianVersion(a);
  const y = parseDebianVersion(b);
  return Math.sign(x.epoch - y.epoch) || compareParts(x.upstream, y.upstream) || compareParts(x.revision, y.revision);
}

/** A version's epoch, upstream version and revision (missing ones as dpkg takes them: 0 and empty). */
export function parseDebianVersion(version: string): { epoch: number; upstream: string; revision: string } {
  const text = version.trim();
  const colon = text.indexOf(':');
  const epoch = colon > 0 && /^\d+$/.test(text.slice(0, colon)) ? Number(text.slice(0, colon)) : 0;
  const rest = colon > 0 ? text.slice(colon + 1) : text;
  const dash = rest.lastIndexOf('-');
  return dash >= 0
    ? { epoch, upstream: rest.slice(0, dash), revision: rest.slice(dash + 1) }
    : { epoch, upstream: rest, revision: '' };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string) => /[A-Za-z]/.test(c);

/** A character's weight in a non-digit run: the end of the run 0, a tilde below it, letters, then the rest. */
function weight(c: string | undefined): number {
  if (c === undefined || isDigit(c)) return 0;
  if (c === '~') return -1;
  if (isLetter(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

function compareParts(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    // a run of non-digits, character by character
    while ((i < a.length && !isDigit(a[i])) || (j < b.length && !isDigit(b[j]))) {
      const order = weight(a[i]) - weight(b[j]);
      if (order) return Math.sign(order);
      i++;
      j++;
    }
    // a run of digits, as numbers (leading zeros do not count)
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    let first = 0;
    while (isDigit(a[i]) && isDigit(b[j])) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (isDigit(a[i])) return 1;
    if (isDigit(b[j])) return -1;
    if (first) return Math.sign(first);
  }
  return 0;
}
