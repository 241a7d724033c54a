/**
 * RPM's version order, as rpm compares an `[epoch:]version[-release]` (rpmvercmp for the version,
 * then for the release; a missing epoch is 0).
 */
export function compareRpmVersions(a: string, b: string): number {
  const x = parseEvr(a);
  const y = parseEvr(b);
  return Math.sign(x.epoch - y.epoch) || rpmvercmp(x.version, y.version) || rpmvercmp(x.release, y.release);
}

/** An `[epoch:]version[-release]` split; the release is empty when none is given. */
export function parseEvr(evr: string): { epoch: number; version: string; release: string } {
  const colon = evr.indexOf(':');
  const epoch = colon > 0 && /^\d+$/.test(evr.slice(0, colon)) ? Number(evr.slice(0, colon)) : 0;
  const rest = colon > 0 ? evr.slice(colon + 1) : evr;
  const dash = rest.lastIndexOf('-');
  return dash >= 0
    ? { epoch, version: rest.slice(0, dash), release: rest.slice(dash + 1) }
    : { epoch, version: rest, release: '' };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isAlpha = (c: string | undefined) => c !== undefined && /[A-Za-z]/.test(c);
const isAlnum = (c: string | undefined) => isDigit(c) || isAlpha(c);

/**
 * rpmvercmp: segments of digits or of letters, anything else separating them; a tilde sorts
 * before everything (a pre-release), a caret after the end but before anything else (a
 * post-release snapshot); digits newer than letters; numbers by value.
 */
export function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    while (i < a.length && !isAlnum(a[i]) && a[i] !== '~' && a[i] !== '^') i++;
    while (j < b.length && !isAlnum(b[j]) && b[j] !== '~' && b[j] !== '^') j++;
    if (a[i] === '~' || b[j] === '~') {
      if (a[i] !== '~') return 1;
      if (b[j] !== '~') return -1;
      i++;
      j++;
      continue;
    }
    if (a[i] === '^' || b[j] === '^') {
      if (i >= a.length) return -1;
      if (j >= b.length) return 1;
      if (a[i] !== '^') return 1;
      if (b[j] !== '^') return -1;
      i++;
      j++;
      continue;
    }
    if (i >= a.length || j >= b.length) break;
    const numeric = isDigit(a[i]);
    const test = numeric ? isDigit : isAlpha;
    const si = i;
    const sj = j;
    while (i < a.length && test(a[i])) i++;
    while (j < b.length && test(b[j])) j++;
    // segments of different kinds: the numeric one is newer
    if (j === sj) return numeric ? 1 : -1;
    let x = a.slice(si, i);
    let y = b.slice(sj, j);
    if (numeric) {
      x = x.replace(/^0+/, '');
      y = y.replace(/^0+/, '');
      if (x.length !== y.length) return x.length > y.length ? 1 : -1;
    }
    if (x !== y) return x > y ? 1 : -1;
  }
  if (i >= a.length && j >= b.length) return 0;
  return i < a.length ? 1 : -1;
}
