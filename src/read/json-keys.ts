/**
 * Duplicate keys in one JSON object. JSON.parse keeps the last value without a word, but other parsers do not agree
 * (serde refuses a repeated struct field; some keep the first): a record whose meaning depends on the parser. One
 * linear pass over the text, strings skipped with indexOf; the JSON Pointer is worked out only when there is a hit.
 * The text must be valid JSON (it is called after JSON.parse succeeded).
 */

export interface DuplicateKey {
  /** The repeated key, decoded. */
  key: string;
  /** JSON Pointer of the object that repeats it ("" for the top level). */
  pointer: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const COMMA = 44;
const COLON = 58;

/** Index of the quote that closes the string opened at `i`. */
function stringEnd(s: string, i: number): number {
  let j = i;
  for (;;) {
    j = s.indexOf('"', j + 1);
    if (j < 0) return s.length;
    let k = j - 1;
    while (s.charCodeAt(k) === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}

const decode = (s: string, from: number, end: number): string => {
  const raw = s.slice(from + 1, end);
  return raw.includes('\\') ? (JSON.parse(s.slice(from, end + 1)) as string) : raw;
};

/** Keys of one open object: a short list, a set once it grows. */
class Keys {
  private list: string[] = [];
  private set: Set<string> | undefined;
  /** Adds `k`; false when it was already there. */
  add(k: string): boolean {
    if (this.set) {
      if (this.set.has(k)) return false;
      this.set.add(k);
      return true;
    }
    if (this.list.includes(k)) return false;
    this.list.push(k);
    if (this.list.length > 16) this.set = new Set(this.list);
    return true;
  }
}

/** The first key repeated within one object of the JSON text `s`, if any. */
export function duplicateKey(s: string): DuplicateKey | undefined {
  const stack: Array<Keys | undefined> = [];
  let top: Keys | undefined;
  let expectKey = false;
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      if (expectKey && top) {
        if (!top.add(decode(s, i, end))) return locate(s, i);
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    if (c === OPEN_OBJECT) {
      stack.push(top);
      top = new Keys();
      expectKey = true;
    } else if (c === OPEN_ARRAY) {
      stack.push(top);
      top = undefined;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      top = stack.pop();
      expectKey = false;
    } else if (c === COMMA) expectKey = top !== undefined;
    i++;
  }
  return undefined;
}

const escapePointer = (k: string): string => k.replaceAll('~', '~0').replaceAll('/', '~1');

/** The pointer of the object holding the key that starts at `at` (a second, path-keeping pass up to it). */
function locate(s: string, at: number): DuplicateKey {
  // Each open container: its path, and for an array the index of the current element.
  const path: Array<{ token: string; index: number; array: boolean }> = [];
  let lastKey = '';
  let i = 0;
  while (i < at) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(s, i);
      let j = end + 1;
      while (j < s.length && (s.charCodeAt(j) <= 32 || s.charCodeAt(j) === COLON)) {
        if (s.charCodeAt(j) === COLON) {
          lastKey = decode(s, i, end);
          break;
        }
        j++;
      }
      i = end + 1;
      continue;
    }
    const parent = path.at(-1);
    const token = parent === undefined ? '' : parent.array ? String(parent.index) : escapePointer(lastKey);
    if (c === OPEN_OBJECT) path.push({ token, index: 0, array: false });
    else if (c === OPEN_ARRAY) path.push({ token, index: 0, array: true });
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) path.pop();
    else if (c === COMMA && parent?.array) parent.index++;
    i++;
  }
  const end = stringEnd(s, at);
  const pointer = path
    .slice(1)
    .map((p) => `/${p.token}`)
    .join('');
  return { key: decode(s, at, end), pointer };
}
