/**
 * Ruby's Marshal format 4.8, as far as RubyGems' indexes use it: nil, booleans, integers,
 * UTF-8 strings, symbols, arrays, hashes, plain objects (`o`), and objects that marshal
 * themselves (`U`, Gem::Version and Gem::Requirement; `u`, Gem::Specification).
 */

/** A Ruby value to write. */
export type RubyValue =
  | null
  | boolean
  | number
  | string
  | RubySymbol
  | RubyValue[]
  | RubyHash
  | RubyObject
  | RubyUserMarshal
  | RubyUserDefined;

export class RubySymbol {
  constructor(readonly name: string) {}
}
export class RubyHash {
  constructor(readonly entries: [RubyValue, RubyValue][]) {}
}
/** An object written field by field (`o`): instance variable names with their '@'. */
export class RubyObject {
  constructor(
    readonly className: string,
    readonly ivars: [string, RubyValue][],
  ) {}
}
/** An object whose `marshal_dump` answers `data` (`U`). */
export class RubyUserMarshal {
  constructor(
    readonly className: string,
    readonly data: RubyValue,
  ) {}
}
/** An object whose `_dump` answers the bytes `data` (`u`). */
export class RubyUserDefined {
  constructor(
    readonly className: string,
    readonly data: Buffer,
  ) {}
}

export const sym = (name: string) => new RubySymbol(name);

/** `Marshal.dump(value)`. */
export function dump(value: RubyValue): Buffer {
  const out: Buffer[] = [Buffer.from([4, 8])];
  const symbols = new Map<string, number>();
  const byte = (b: number): void => {
    out.push(Buffer.from([b]));
  };
  const int = (n: number) => {
    if (n === 0) return byte(0);
    if (n > 0 && n < 123) return byte(n + 5);
    if (n < 0 && n > -124) return byte((n - 5) & 0xff);
    const bytes: number[] = [];
    let rest = n;
    for (let i = 0; i < 4; i++) {
      bytes.push(rest & 0xff);
      rest >>= 8;
      if ((n >= 0 && rest === 0) || (n < 0 && rest === -1)) break;
    }
    byte(n >= 0 ? bytes.length : (256 - bytes.length) & 0xff);
    out.push(Buffer.from(bytes));
  };
  const raw = (bytes: Buffer) => {
    int(bytes.length);
    out.push(bytes);
  };
  const symbol = (name: string) => {
    const known = symbols.get(name);
    if (known !== undefined) {
      byte(0x3b); // ;
      return int(known);
    }
    symbols.set(name, symbols.size);
    byte(0x3a); // :
    raw(Buffer.from(name, 'utf8'));
  };
  const write = (v: RubyValue): void => {
    if (v === null) return byte(0x30); // 0
    if (v === true) return byte(0x54); // T
    if (v === false) return byte(0x46); // F
    if (typeof v === 'number') {
      byte(0x69); // i
      return int(v);
    }
    if (typeof v === 'string') {
      byte(0x49); // I: a string with its encoding as an instance variable
      byte(0x22); // "
      raw(Buffer.from(v, 'utf8'));
      int(1);
      symbol('E');
      return byte(0x54);
    }
    if (v instanceof RubySymbol) return symbol(v.name);
    if (Array.isArray(v)) {
      byte(0x5b); // [
      int(v.length);
      return v.forEach(write);
    }
    if (v instanceof RubyHash) {
      byte(0x7b); // {
      int(v.entries.length);
      for (const [k, value] of v.entries) {
        write(k);
        write(value);
      }
      return;
    }
    if (v instanceof RubyObject) {
      byte(0x6f); // o
      symbol(v.className);
      int(v.ivars.length);
      for (const [name, value] of v.ivars) {
        symbol(name);
        write(value);
      }
      return;
    }
    if (v instanceof RubyUserMarshal) {
      byte(0x55); // U
      symbol(v.className);
      return write(v.data);
    }
    byte(0x75); // u
    symbol(v.className);
    raw(v.data);
  };
  write(value);
  return Buffer.concat(out);
}

/** What `load` answers: Ruby values as plain JavaScript (objects as `{ class, data }`). */
export type Loaded =
  null | boolean | number | string | Loaded[] | { class: string; data: Loaded } | Map<Loaded, Loaded>;

/**
 * `Marshal.load` of what RubyGems' indexes hold (specs files: arrays of name, Gem::Version and
 * platform). Objects answer as `{ class, data }`; what an index never holds throws.
 */
export function load(bytes: Buffer): Loaded {
  if (bytes[0] !== 4 || bytes[1] !== 8) throw new Error('not Marshal 4.8');
  let at = 2;
  const symbols: string[] = [];
  const objects: Loaded[] = [];
  const next = () => bytes[at++]!;
  const int = (): number => {
    const c = (next() << 24) >> 24;
    if (c === 0) return 0;
    if (c > 4) return c - 5;
    if (c < -4) return c + 5;
    let n = 0;
    const count = Math.abs(c);
    for (let i = 0; i < count; i++) n |= next() << (8 * i);
    if (c < 0) n -= 2 ** (8 * count);
    return n;
  };
  const raw = () => {
    const length = int();
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  const symbol = (): string => {
    const type = next();
    if (type === 0x3a) {
      const name = raw().toString('utf8');
      symbols.push(name);
      return name;
    }
    if (type === 0x3b) return symbols[int()]!;
    throw new Error(`a symbol was expected, not 0x${type.toString(16)}`);
  };
  const read = (): Loaded => {
    const type = next();
    switch (type) {
      case 0x30:
        return null;
      case 0x54:
        return true;
      case 0x46:
        return false;
      case 0x69:
        return int();
      case 0x3a:
      case 0x3b:
        at--;
        return symbol();
      case 0x22: {
        const text = raw().toString('utf8');
        objects.push(text);
        return text;
      }
      case 0x49: {
        const inner = read();
        const count = int();
        for (let i = 0; i < count; i++) {
          symbol();
          read();
        }
        return inner;
      }
      case 0x5b: {
        const list: Loaded[] = [];
        objects.push(list);
        const count = int();
        for (let i = 0; i < count; i++) list.push(read());
        return list;
      }
      case 0x7b: {
        const map = new Map<Loaded, Loaded>();
        objects.push(map);
        const count = int();
        for (let i = 0; i < count; i++) map.set(read(), read());
        return map;
      }
      case 0x55: {
        const object = { class: symbol(), data: null as Loaded };
        objects.push(object);
        object.data = read();
        return object;
      }
      case 0x75: {
        const object = { class: symbol(), data: raw().toString('latin1') };
        objects.push(object);
        return object;
      }
      case 0x6f: {
        const object = { class: symbol(), data: new Map<Loaded, Loaded>() as Loaded };
        objects.push(object);
        const count = int();
        for (let i = 0; i < count; i++) (object.data as Map<Loaded, Loaded>).set(symbol(), read());
        return object;
      }
      case 0x40:
        return objects[int()]!;
      default:
        throw new Error(`Marshal type 0x${type.toString(16)} is not read here`);
    }
  };
  return read();
}
