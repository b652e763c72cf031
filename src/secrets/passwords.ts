/**
 * Passwords written out: in a URI's user information (`postgres://app:s3cret@db:5432/x`, any scheme), and in an
 * assignment to a key named for one (`password=…`, `db_pass=…`, `pwd=…`, `"password": "…"`, `password: …` at the
 * start of a YAML line, `'password' => '…'`). Only the password is replaced; the scheme, user, host and key stay.
 * Linear like every detector (detectors.ts): each candidate is found by a literal search, each run read once.
 */
import type { Detector } from './types.js';
import { isPlaceholder, isWordChar, NextOf, runEnd, valueEnd } from './values.js';

/** Words that stand for a password in documentation (`postgres://user:password@host`, `password=secret`). */
const PASSWORD_WORDS: ReadonlySet<string> = new Set(['password', 'passwd', 'pass', 'pwd', 'pw', 'secret']);

const isSchemeChar = (c: number): boolean => isWordChar(c) || c === 43 || c === 45 || c === 46;

/** The user and the password of a URI's user information (RFC 3986: no `/?#@` or space in either). */
const URI_USER = /[^\s:/?#@"'`\\<>[\]{}]*/y;
const URI_PASSWORD = /[^\s/?#@"'`\\<>[\]{}]*/y;

/** scheme://user:password@host: the password (the user may be empty: `redis://:pw@host`). */
const uriPassword: Detector = {
  kind: 'uri-password',
  find(text, hit, cut) {
    for (let from = 0; ; ) {
      const c = text.indexOf('://', from);
      if (c === -1) return;
      from = c + 3;
      if (c === 0 || !isSchemeChar(text.charCodeAt(c - 1))) continue;
      const user = runEnd(URI_USER, text, c + 3);
      from = user;
      if (text.charCodeAt(user) !== 58) continue;
      const pw = user + 1;
      const end = runEnd(URI_PASSWORD, text, pw);
      from = end;
      if (end === pw) continue;
      // Cut before its `@`: what is left may be a password (or a port: the cut hides which).
      const open = cut === true && end === text.length;
      if (!open && (text.charCodeAt(end) !== 64 || end + 1 >= text.length || /\s/.test(text[end + 1]!))) continue;
      // `https://a:b@host`, `abc:xyz`: documentation's examples; a password has 4 characters at least.
      if ((!open && end - pw < 4) || isPlaceholder(text.slice(pw, end), PASSWORD_WORDS)) continue;
      hit(c + 3, pw, end);
    }
  },
};

/** A key naming a password, in any case: the last word of an identifier (`db_password`, `dbPassword`, `PWD`). */
const KEY = /pass(?:word|wd)?|pwd/gi;
/** What assigns to it: `=`, `:`, `:=`, `=>` (not `==`), with blanks around. */
const SEPARATOR = /[ \t]*(=>|:=|=(?!=)|:)[ \t]*/y;
/** A bare value: up to a blank, a quote or a separator of URL queries and shell commands. */
const BARE = /[^\s"'`\\&;,<>]*/y;
/** Blanks and a YAML list's dash before a key at the start of a line. */
const INDENT = /[ \t-]/;
const isIdentChar = (c: number): boolean => isWordChar(c) || c === 45 || c === 46;

/** Whether the key at `k` is the last word of its identifier (starts it, or follows `_` `.` `-` or a hump). */
function startsWord(text: string, k: number): boolean {
  if (k === 0) return true;
  const p = text.charCodeAt(k - 1);
  if (!isWordChar(p)) return true;
  if (p === 95) return true;
  const first = text.charCodeAt(k);
  // camelCase: `dbPassword`, `userPwd`.
  return first >= 65 && first <= 90 && ((p >= 97 && p <= 122) || (p >= 48 && p <= 57));
}

/** Whether the identifier ending at `k` starts its line (after blanks and a YAML list's dash). */
function startsLine(text: string, k: number): boolean {
  let i = k;
  while (i > 0 && isIdentChar(text.charCodeAt(i - 1))) i--;
  while (i > 0 && INDENT.test(text[i - 1]!)) i--;
  return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r';
}

/** A value that is code or a path, not a password: a call, the variable of the same name, `/home/x` (`PWD=`). */
function notAPassword(value: string, key: string, quoted: boolean): boolean {
  if (value.length < 4) return true;
  const lower = value.toLowerCase();
  // `pass=3 fail=0`: a test runner's counts.
  if (key === 'pass' && /^\d+$/.test(value)) return true;
  if (value[0] === '/' || value[0] === '~' || /^[A-Za-z]:\\/.test(value)) return true;
  if (quoted) return false;
  // Code: a call, a member or a subscript (`getpass()`, `App::$conf->get`, `cfg['db']`).
  if (/[([]|::|->/.test(value)) return true;
  // password=password, password=self.password, pwd=args.pwd, password=db_password.
  const at = lower.length - key.length;
  return lower.endsWith(key) && (at === 0 || '._'.includes(lower[at - 1]!));
}

/** An assignment to a password's key: only the value is replaced (inside its quotes, so JSON stays JSON). */
const passwordAssignment: Detector = {
  kind: 'password',
  find(text, hit, cut) {
    if (!text.includes('=') && !text.includes(':')) return;
    let next: NextOf | undefined;
    KEY.lastIndex = 0;
    for (let m = KEY.exec(text); m; m = KEY.exec(text)) {
      const k = m.index;
      let after = k + m[0].length;
      if (after < text.length && isWordChar(text.charCodeAt(after))) continue;
      if (!startsWord(text, k)) continue;
      const keyQuoted = text[after] === '"' || text[after] === "'";
      if (keyQuoted) after++;
      SEPARATOR.lastIndex = after;
      const sep = SEPARATOR.exec(text);
      if (!sep) continue;
      const at = SEPARATOR.lastIndex;
      const end = valueEnd(text, at, BARE, (next ??= new NextOf(text)), cut);
      if (end === -1) continue;
      KEY.lastIndex = end;
      const quoted = text[at] === '"' || text[at] === "'";
      // `Password: see below` is prose: a colon assigns only to a quoted key or value, or at a YAML line's start.
      if (sep[1] === ':' && !keyQuoted && !quoted && !startsLine(text, k)) continue;
      const open = cut === true && end === text.length;
      const closed = quoted && !(open && (end - at < 2 || text[end - 1] !== text[at]));
      const [vs, ve] = quoted ? [at + 1, closed ? end - 1 : end] : [at, end];
      const value = text.slice(vs, ve);
      if (isPlaceholder(value, PASSWORD_WORDS) || (!open && notAPassword(value, m[0].toLowerCase(), quoted))) continue;
      if (ve > vs) hit(k, vs, ve);
    }
  },
};

export const passwordDetectors: readonly Detector[] = [uriPassword, passwordAssignment];
