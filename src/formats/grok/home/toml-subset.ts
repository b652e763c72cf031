/**
 * A strict reader of the small TOML subset Grok's permission store is written in (home-artifacts.md §1.6): top-level
 * `key = value` lines whose value is a boolean, a string (basic or literal, one line) or an array of such strings
 * (over several lines, a trailing comma allowed), with `#` comments and blank lines. Anything else (a table, a
 * number, a date, a dotted or repeated key, a multi-line string, bytes that are not UTF-8) is refused with the line
 * it starts on: never guessed at, never thrown.
 */

export type TomlValue = boolean | string | string[];

export interface TomlEntry {
  key: string;
  value: TomlValue;
  line: number;
  byteOffset: number;
  byteLength: number;
}

export type TomlRead =
  | { ok: true; entries: TomlEntry[] }
  | { ok: false; why: string; line: number; byteOffset: number };

const KEY = /^[A-Za-z0-9_-]+$/;
const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

class Refused extends Error {}

/** A cursor over the whole text: values, arrays over several lines, comments. */
class Cursor {
  i = 0;
  constructor(readonly s: string) {}
  /** Skip spaces and tabs; with `nl`, also newlines and comments (between array items). */
  skip(nl: boolean): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || (nl && (c === '\n' || c === '\r'))) this.i++;
      else if (nl && c === '#') {
        const end = this.s.indexOf('\n', this.i);
        this.i = end < 0 ? this.s.length : end;
      } else return;
    }
  }
  string(): string {
    const q = this.s[this.i];
    if (this.s.startsWith(q === '"' ? '"""' : "'''", this.i)) throw new Refused('a multi-line string');
    this.i++;
    let out = '';
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined || c === '\n' || c === '\r') throw new Refused('a string without its closing quote');
      if (c === q) return out;
      if (q === '"' && c === '\\') {
        const e = this.s[this.i++] ?? '';
        if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          const hex = this.s.slice(this.i, this.i + n);
          const cp = /^[0-9a-fA-F]+$/.test(hex) && hex.length === n ? parseInt(hex, 16) : Number.NaN;
          if (!(cp <= 0x10ffff) || (cp >= 0xd800 && cp <= 0xdfff)) throw new Refused('a bad \\u escape');
          out += String.fromCodePoint(cp);
          this.i += n;
        } else if (ESCAPES[e] !== undefined) out += ESCAPES[e];
        else throw new Refused('an unknown escape in a string');
      } else if (c < ' ' && c !== '\t') throw new Refused('a control character in a string');
      else out += c;
    }
  }
  word(w: string): boolean {
    if (!this.s.startsWith(w, this.i) || /[A-Za-z0-9_.:+-]/.test(this.s[this.i + w.length] ?? '')) return false;
    this.i += w.length;
    return true;
  }
  value(): TomlValue {
    const c = this.s[this.i];
    if (c === '"' || c === "'") return this.string();
    if (this.word('true')) return true;
    if (this.word('false')) return false;
    if (c !== '[') throw new Refused('a value that is not a boolean, a string or an array of strings');
    this.i++;
    const items: string[] = [];
    for (;;) {
      this.skip(true);
      const q = this.s[this.i];
      if (q === ']') {
        this.i++;
        return items;
      }
      if (q === undefined) throw new Refused('an array without its closing bracket');
      if (q !== '"' && q !== "'") throw new Refused('an array item that is not a string');
      items.push(this.string());
      this.skip(true);
      if (this.s[this.i] === ',') this.i++;
      else if (this.s[this.i] !== ']') throw new Refused('an array without a comma or its closing bracket');
    }
  }
}

/** Read the file's bytes: every entry with its line and byte offset, or why and where it was refused. */
export function readTomlSubset(bytes: Buffer): TomlRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, why: 'bytes that are not UTF-8', line: 1, byteOffset: 0 };
  }
  if (text.charCodeAt(0) === 0xfeff) return { ok: false, why: 'a byte order mark', line: 1, byteOffset: 0 };
  // Line starts (character index and byte offset), for each entry's place.
  const starts: Array<[number, number]> = [[0, 0]];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    const [c, b] = starts[starts.length - 1]!;
    starts.push([i + 1, b + Buffer.byteLength(text.slice(c, i + 1), 'utf8')]);
  }
  let line = 0;
  const placeOf = (i: number) => {
    while (line + 1 < starts.length && starts[line + 1]![0] <= i) line++;
    const [c, b] = starts[line]!;
    return { line: line + 1, byteOffset: b + Buffer.byteLength(text.slice(c, i), 'utf8') };
  };
  const c = new Cursor(text);
  const entries: TomlEntry[] = [];
  const keys = new Set<string>();
  for (;;) {
    c.skip(true);
    if (c.i >= text.length) return { ok: true, entries };
    const at = placeOf(c.i);
    const refuse = (why: string): TomlRead => ({ ok: false, why, ...at });
    if (text[c.i] === '[') return refuse('a table header');
    const keyEnd = text.slice(c.i).search(/[ \t=\n]/);
    const key = text.slice(c.i, keyEnd < 0 ? text.length : c.i + keyEnd);
    if (!KEY.test(key))
      return refuse('a key that is not a bare name (quoted or dotted), or a line that is not key = value');
    if (keys.has(key)) return refuse(`the key ${key} a second time`);
    keys.add(key);
    c.i += key.length;
    c.skip(false);
    if (text[c.i] !== '=') return refuse('a line that is not key = value');
    c.i++;
    c.skip(false);
    let value: TomlValue;
    try {
      value = c.value();
    } catch (e) {
      if (e instanceof Refused) return refuse(e.message);
      throw e;
    }
    c.skip(false);
    if (text[c.i] === '#') {
      const end = text.indexOf('\n', c.i);
      c.i = end < 0 ? text.length : end;
    }
    if (text[c.i] === '\r') c.i++;
    if (c.i < text.length && text[c.i] !== '\n') return refuse('text after the value');
    const end = placeOf(c.i);
    const byteLength = end.byteOffset - at.byteOffset;
    entries.push({ key, value, ...at, byteLength });
  }
}
