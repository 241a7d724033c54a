/**
 * Alpine's order of package versions, as apk orders them:
 * `digits{.digits}…{letter}{_suffix{number}}…{~hash}{-r number}` (`1.2.3b_rc2~1f0a-r4`).
 *
 * A version is read as a sequence of tokens, each of a kind; two versions are compared token by
 * token while both hold a token of the same kind. Numbers compare as numbers, except a number after
 * the first written with a leading zero (`1.02`), which compares as text; letters and hashes as text;
 * suffixes in their own order: `alpha` < `beta` < `pre` < `rc` < (none) < `cvs` < `svn` < `git` <
 * `hg` < `p`. Where the kinds first differ, a pre-release suffix makes its version the lower;
 * otherwise the version whose token comes earlier in the grammar (more of the version remains) is
 * the higher, so that `1.2.1` > `1.2a` > `1.2` and `1.2-r0` > `1.2`.
 */

/** The kinds of token, in the order the grammar allows them. */
const enum Kind {
  FirstNumber,
  Number,
  Letter,
  Suffix,
  SuffixNumber,
  Hash,
  Revision,
  End,
  Invalid,
}

/** The suffixes in their order; the release itself (no suffix) sits between `rc` and `cvs`. */
const SUFFIXES = ['alpha', 'beta', 'pre', 'rc', '', 'cvs', 'svn', 'git', 'hg', 'p'];
const RELEASE = SUFFIXES.indexOf('');

interface Token {
  kind: Kind;
  /** The token as written (digits, a letter, a suffix's name, a hash). */
  text: string;
  /** A number's value, or a suffix's rank. */
  value: bigint;
}

/** Reads a version's tokens, the last being `End` or, where the grammar breaks, `Invalid`. */
function tokensOf(version: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let kind: Kind = Kind.FirstNumber as Kind;
  const push = (next: Kind, text: string, value = 0n) => {
    kind = next;
    tokens.push({ kind, text, value });
  };
  const digits = () => {
    const match = /^[0-9]+/.exec(version.slice(at));
    at += match?.[0].length ?? 0;
    return match?.[0];
  };
  const first = digits();
  if (first === undefined) return [{ kind: Kind.Invalid, text: '', value: 0n }];
  push(Kind.FirstNumber, first, BigInt(first));
  for (;;) {
    if (at === version.length) {
      push(Kind.End, '');
      return tokens;
    }
    const char = version[at]!;
    let next: Kind = Kind.Invalid;
    if (/[a-z]/.test(char) && kind <= Kind.Number) {
      at += 1;
      push(Kind.Letter, char, BigInt(char.charCodeAt(0)));
      continue;
    }
    if ((char === '.' && kind <= Kind.Number) || (/[0-9]/.test(char) && kind <= Kind.Suffix)) {
      if (char === '.') at += 1;
      next = kind === Kind.Suffix ? Kind.SuffixNumber : kind <= Kind.Number ? Kind.Number : Kind.Invalid;
      const number = next === Kind.Invalid ? undefined : digits();
      if (number === undefined) break;
      push(next, number, BigInt(number));
      continue;
    }
    if (char === '_' && kind <= Kind.SuffixNumber) {
      const name = /^[a-z]*/.exec(version.slice(at + 1))![0];
      const rank = name ? SUFFIXES.indexOf(name) : -1;
      if (rank < 0 || rank === RELEASE) break;
      at += 1 + name.length;
      push(Kind.Suffix, name, BigInt(rank));
      continue;
    }
    if (char === '~' && kind < Kind.Hash) {
      const hash = /^[0-9a-fA-F]*/.exec(version.slice(at + 1))![0];
      if (!hash) break;
      at += 1 + hash.length;
      push(Kind.Hash, hash);
      continue;
    }
    if (char === '-' && kind < Kind.Revision && version.startsWith('-r', at)) {
      at += 2;
      const number = digits();
      if (number === undefined) break;
      push(Kind.Revision, number, BigInt(number));
      continue;
    }
    break;
  }
  tokens.push({ kind: Kind.Invalid, text: '', value: 0n });
  return tokens;
}

const textOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareTokens(a: Token, b: Token): number {
  // a number after the first written with a leading zero compares as text (`1.02` < `1.1`)
  if (a.kind === Kind.Hash || (a.kind === Kind.Number && (a.text.startsWith('0') || b.text.startsWith('0'))))
    return textOrder(a.text, b.text);
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

/** Whether apk reads the whole of a version by its grammar. */
export const isApkVersion = (version: string) => tokensOf(version).at(-1)!.kind === Kind.End;

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`, in apk's order. */
export function compareApkVersions(a: string, b: string): number {
  const left = tokensOf(a);
  const right = tokensOf(b);
  let i = 0;
  for (; left[i]!.kind === right[i]!.kind && left[i]!.kind < Kind.End; i += 1) {
    const order = compareTokens(left[i]!, right[i]!);
    if (order) return order;
  }
  const x = left[i]!;
  const y = right[i]!;
  if (x.kind === y.kind) return 0;
  // where they part, a pre-release suffix is the older; else the version with more of it left is the newer
  if (x.kind === Kind.Suffix && x.value < RELEASE) return -1;
  if (y.kind === Kind.Suffix && y.value < RELEASE) return 1;
  return x.kind > y.kind ? -1 : 1;
}
