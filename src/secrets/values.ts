/**
 * What the detectors that read an assigned value share (detectors.ts: NAME_KEY=…; passwords.ts: password=…,
 * scheme://user:password@host): the value's end, read without backtracking and without reading any character
 * twice for one text, and the placeholders that stand for a secret rather than being one.
 */

export const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** The end of the run of `re` (a sticky `[...]*` expression: it always matches, never backtracks) from `at`. */
export function runEnd(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  re.exec(text);
  return re.lastIndex;
}

/**
 * The next occurrence of a character, remembered: for positions asked in increasing order (the detectors scan
 * forward), each character of the text is read once whatever the number of questions. A quote that never closes
 * is looked for once, not once per assignment that opens one.
 */
export class NextOf {
  private readonly from = new Map<string, number>();
  private readonly at = new Map<string, number>();
  constructor(private readonly text: string) {}

  /** The index of `ch` at or after `from`, or -1. */
  next(ch: string, from: number): number {
    const f = this.from.get(ch);
    const a = this.at.get(ch);
    if (f !== undefined && a !== undefined && from >= f && (a === -1 || a >= from)) return a;
    const found = this.text.indexOf(ch, from);
    this.from.set(ch, from);
    this.at.set(ch, found);
    return found;
  }
}

/**
 * The end of an assigned value starting at `at`: a double- or single-quoted string on one line, else a run of
 * `bare` (a sticky `[...]*` expression; quotes and backslashes are never in it). -1: no value. `cut`: the text was
 * cut at its end, so a quoted string still open there runs to the end.
 */
export function valueEnd(text: string, at: number, bare: RegExp, next: NextOf, cut = false): number {
  const q = text[at];
  if (q === '"' || q === "'") {
    const close = next.next(q, at + 1);
    const nl = next.next('\n', at + 1);
    if (close !== -1 && (nl === -1 || close < nl)) return close + 1;
    return cut && nl === -1 ? text.length : -1;
  }
  const end = runEnd(bare, text, at);
  return end > at ? end : -1;
}

/**
 * A value that stands for a secret rather than being one: documentation's `sk-ant-...`, `<your key>`, a variable
 * (`$TOKEN`, `${TOKEN}`, `%TOKEN%`), a template (`{{ token }}`), `xxxx`, `****`, `changeme`. Real sessions are
 * full of them (a README pasted into a prompt); reporting them would bury the real keys.
 */
const PLACEHOLDER_WORDS = new Set(
  'changeme change_me placeholder redacted example dummy none null undefined true false'.split(' '),
);
const OPENING = '"\'`';
const CLOSING = '"\'`,;)]}';

/** The value without one opening quote and without its closing quotes and punctuation (one pass: no regex). */
function bareValue(raw: string): string {
  let s = 0;
  let e = raw.length;
  if (e && OPENING.includes(raw[0]!)) s = 1;
  while (e > s && CLOSING.includes(raw[e - 1]!)) e--;
  return raw.slice(s, e).trim();
}

export function isPlaceholder(raw: string, extraWords?: ReadonlySet<string>): boolean {
  const v = bareValue(raw);
  if (!v.length || v.includes('...') || v.includes('\u2026') || '$%<{'.includes(v[0]!)) return true;
  const lower = v.toLowerCase();
  if (PLACEHOLDER_WORDS.has(lower) || extraWords?.has(lower)) return true;
  if (/^(?:your|my|the)[-_ ]/i.test(v)) return true;
  // Code that reads the secret from somewhere else: process.env.X, os.environ["X"], getenv("X").
  if (/^(?:process\.env|os\.environ|os\.getenv|getenv|env)\b/.test(v)) return true;
  // A mask: xxxx, ****, 0000, ####.
  if (!'xX*#0'.includes(v[0]!)) return false;
  for (let i = 1; i < v.length; i++) if (v[i] !== v[0]) return false;
  return true;
}
