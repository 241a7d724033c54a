/**
 * Artifactory Query Language, as its clients send it:
 * `items.find({criteria}).include("field", …).sort({"$asc": ["field"]}).offset(n).limit(n)`.
 * A real parser (a tokenizer and recursive descent over JSON values with positions): every
 * error names what was expected and the position where the input went wrong.
 */

export class AqlError extends Error {
  constructor(
    message: string,
    /** Zero-based offset in the query text; -1 for an error of meaning rather than of syntax. */
    readonly position: number,
  ) {
    super(position >= 0 ? `${message} (at position ${position})` : message);
    this.name = 'AqlError';
  }
}

export type AqlValue = string | number | boolean | null | AqlValue[] | { [key: string]: AqlValue };

/** A criteria object's entries keep their order and positions, for errors that point at them. */
export interface AqlObject {
  kind: 'object';
  entries: { key: string; value: AqlNode; position: number }[];
  position: number;
}
export type AqlNode =
  | AqlObject
  | { kind: 'array'; items: AqlNode[]; position: number }
  | { kind: 'scalar'; value: string | number | boolean | null; position: number };

export interface AqlQuery {
  domain: 'items' | 'builds';
  criteria: AqlObject;
  include: { field: string; position: number }[];
  sort?: { direction: 'asc' | 'desc'; fields: { field: string; position: number }[] };
  offset?: number;
  limit?: number;
  transitive: boolean;
}

type Token =
  | { type: 'ident'; value: string; position: number }
  | { type: 'string'; value: string; position: number }
  | { type: 'number'; value: number; position: number }
  | { type: 'punct'; value: string; position: number }
  | { type: 'end'; position: number };

const describe = (token: Token) =>
  token.type === 'end'
    ? 'the end of the query'
    : token.type === 'string'
      ? `"${token.value}"`
      : `'${String(token.value)}'`;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if ('{}[](),:.'.includes(c)) {
      tokens.push({ type: 'punct', value: c, position: i });
      i++;
      continue;
    }
    if (c === '"') {
      const start = i;
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new AqlError('Unterminated string', start);
        const d = text[i]!;
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\') {
          const e = text[i + 1];
          const escapes: Record<string, string> = {
            '"': '"',
            '\\': '\\',
            '/': '/',
            b: '\b',
            f: '\f',
            n: '\n',
            r: '\r',
            t: '\t',
          };
          if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            value += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
            i += 6;
            continue;
          }
          if (e === undefined || !(e in escapes)) throw new AqlError('Invalid escape in string', i);
          value += escapes[e]!;
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      tokens.push({ type: 'string', value, position: start });
      continue;
    }
    const number = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (number && /[-\d]/.test(c)) {
      tokens.push({ type: 'number', value: Number(number[0]), position: i });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(i));
    if (ident) {
      tokens.push({ type: 'ident', value: ident[0], position: i });
      i += ident[0].length;
      continue;
    }
    throw new AqlError(`Unexpected character '${c}'`, i);
  }
  tokens.push({ type: 'end', position: text.length });
  return tokens;
}

const MAX_DEPTH = 64;
/**
 * Values a query may compare: each is a parameter and a branch of the SQL it compiles to, and a
 * database refuses an expression past its own limits (SQLite's depth of 1,000) with an error the
 * caller could not read. Past this, the query is refused before anything is compiled.
 */
export const AQL_MAX_TERMS = 500;

class Parser {
  private at = 0;
  /** Values read so far (see AQL_MAX_TERMS). */
  private terms = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private next(): Token {
    const token = this.tokens[this.at]!;
    if (token.type !== 'end') this.at++;
    return token;
  }

  private expectPunct(value: string): Token {
    const token = this.next();
    if (token.type !== 'punct' || token.value !== value)
      throw new AqlError(`Expected '${value}' but found ${describe(token)}`, token.position);
    return token;
  }

  private isPunct(value: string): boolean {
    const token = this.peek();
    return token.type === 'punct' && token.value === value;
  }

  private ident(expected: string): { value: string; position: number } {
    const token = this.next();
    if (token.type !== 'ident') throw new AqlError(`Expected ${expected} but found ${describe(token)}`, token.position);
    return token;
  }

  value(depth = 0): AqlNode {
    if (depth > MAX_DEPTH) throw new AqlError('The query nests too deeply', this.peek().position);
    const token = this.next();
    if (token.type === 'punct' && token.value === '{') {
      const entries: AqlObject['entries'] = [];
      if (!this.isPunct('}')) {
        for (;;) {
          const key = this.next();
          if (key.type !== 'string')
            throw new AqlError(`Expected a field name in double quotes but found ${describe(key)}`, key.position);
          this.expectPunct(':');
          entries.push({ key: key.value, value: this.value(depth + 1), position: key.position });
          if (this.isPunct(',')) {
            this.next();
            continue;
          }
          break;
        }
      }
      this.expectPunct('}');
      return { kind: 'object', entries, position: token.position };
    }
    if (token.type === 'punct' && token.value === '[') {
      const items: AqlNode[] = [];
      if (!this.isPunct(']')) {
        for (;;) {
          items.push(this.value(depth + 1));
          if (this.isPunct(',')) {
            this.next();
            continue;
          }
          break;
        }
      }
      this.expectPunct(']');
      return { kind: 'array', items, position: token.position };
    }
    if (token.type !== 'punct' && ++this.terms > AQL_MAX_TERMS) {
      throw new AqlError(
        `The query compares more than ${AQL_MAX_TERMS} values: split it into several queries`,
        token.position,
      );
    }
    if (token.type === 'string' || token.type === 'number')
      return { kind: 'scalar', value: token.value, position: token.position };
    if (token.type === 'ident' && ['true', 'false', 'null'].includes(token.value)) {
      return {
        kind: 'scalar',
        value: token.value === 'null' ? null : token.value === 'true',
        position: token.position,
      };
    }
    throw new AqlError(`Expected a value but found ${describe(token)}`, token.position);
  }

  private stringArguments(): { field: string; position: number }[] {
    this.expectPunct('(');
    const fields: { field: string; position: number }[] = [];
    if (!this.isPunct(')')) {
      for (;;) {
        const token = this.next();
        if (token.type !== 'string')
          throw new AqlError(`Expected a field name in double quotes but found ${describe(token)}`, token.position);
        fields.push({ field: token.value, position: token.position });
        if (this.isPunct(',')) {
          this.next();
          continue;
        }
        break;
      }
    }
    this.expectPunct(')');
    return fields;
  }

  private numberArgument(name: string): number {
    this.expectPunct('(');
    const token = this.next();
    if (token.type !== 'number' || !Number.isInteger(token.value) || token.value < 0)
      throw new AqlError(`${name}() takes a whole number of 0 or more, not ${describe(token)}`, token.position);
    this.expectPunct(')');
    return token.value;
  }

  query(): AqlQuery {
    const domain = this.ident('a domain such as items');
    if (domain.value !== 'items' && domain.value !== 'builds')
      throw new AqlError(
        `Unsupported domain '${domain.value}': items and builds are the domains served`,
        domain.position,
      );
    this.expectPunct('.');
    const find = this.ident('find');
    if (find.value !== 'find') throw new AqlError(`Expected find but found '${find.value}'`, find.position);
    this.expectPunct('(');
    let criteria: AqlObject = { kind: 'object', entries: [], position: this.peek().position };
    if (!this.isPunct(')')) {
      const value = this.value();
      if (value.kind !== 'object') throw new AqlError('find() takes a criteria object', value.position);
      criteria = value;
    }
    this.expectPunct(')');
    const query: AqlQuery = { domain: domain.value, criteria, include: [], transitive: false };
    const seen = new Set<string>();
    while (this.isPunct('.')) {
      this.next();
      const modifier = this.ident('include, sort, offset, limit or transitive');
      if (seen.has(modifier.value)) throw new AqlError(`${modifier.value}() is given twice`, modifier.position);
      seen.add(modifier.value);
      switch (modifier.value) {
        case 'include':
          query.include = this.stringArguments();
          break;
        case 'sort': {
          this.expectPunct('(');
          const sort = this.value();
          const entry = sort.kind === 'object' && sort.entries.length === 1 ? sort.entries[0]! : undefined;
          if (!entry || (entry.key !== '$asc' && entry.key !== '$desc') || entry.value.kind !== 'array')
            throw new AqlError('sort() takes {"$asc": [fields]} or {"$desc": [fields]}', sort.position);
          query.sort = {
            direction: entry.key === '$asc' ? 'asc' : 'desc',
            fields: entry.value.items.map((item) => {
              if (item.kind !== 'scalar' || typeof item.value !== 'string')
                throw new AqlError('A sort field is a name in double quotes', item.position);
              return { field: item.value, position: item.position };
            }),
          };
          this.expectPunct(')');
          break;
        }
        case 'offset':
          query.offset = this.numberArgument('offset');
          break;
        case 'limit':
          query.limit = this.numberArgument('limit');
          break;
        case 'transitive':
          this.expectPunct('(');
          this.expectPunct(')');
          query.transitive = true;
          break;
        default:
          throw new AqlError(
            `Unknown modifier '${modifier.value}': include, sort, offset, limit or transitive`,
            modifier.position,
          );
      }
    }
    const end = this.next();
    if (end.type !== 'end')
      throw new AqlError(`Expected the end of the query but found ${describe(end)}`, end.position);
    return query;
  }
}

/** Parses a query; throws `AqlError` with the position of the first mistake. */
export function parseAql(text: string): AqlQuery {
  if (text.length > 100_000) throw new AqlError('The query is longer than 100,000 characters', 100_000);
  return new Parser(tokenize(text)).query();
}
