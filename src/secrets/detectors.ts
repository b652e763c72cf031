/**
 * The secret detectors, one table for every user: `bundle --redact` replaces what they find, the
 * SECRET_IN_SESSION check reports it. Linear by construction, whatever the input: each detector finds candidates
 * with a literal (or single-run) search, then reads each run of the secret's characters once with a sticky
 * expression that cannot backtrack into itself, and resumes after the run it read. No nested or unbounded
 * backtracking anywhere (a quadratic JWT pattern once took 88 s on 480 KB); user patterns run on RE2
 * (user-patterns.ts).
 */
import { mayHoldKeyedSecret } from './literals.js';
import { passwordDetectors } from './passwords.js';
import type { Detector, SecretMatch } from './types.js';
import { isPlaceholder, isWordChar, NextOf, runEnd, valueEnd } from './values.js';

export type { Detector, SecretMatch } from './types.js';

/**
 * A provider key: a literal prefix, then a run of the key's characters of at least `min` (at most `max`).
 * `bounded`: the prefix must start a word (prefixes too common inside words); otherwise the key is found glued to
 * a preceding word character (`xxai-…`, a key pasted without a space).
 */
function prefixedKey(prefix: string, chars: string, min: number, max?: number, bounded = false): Detector {
  const head = new RegExp(prefix, 'g');
  const run = new RegExp(`[${chars}]*`, 'y');
  return {
    kind: 'api-key',
    find(text, hit, cut) {
      head.lastIndex = 0;
      for (let m = head.exec(text); m; m = head.exec(text)) {
        const start = m.index;
        const body = start + m[0].length;
        const end = runEnd(run, text, body);
        // A later prefix inside this run ends at the same place with a shorter body: skip to the run's end.
        head.lastIndex = Math.max(end, start + 1);
        if (bounded && start > 0 && isWordChar(text.charCodeAt(start - 1))) continue;
        const len = end - body;
        if (max !== undefined && len > max) continue;
        if (len < min && !(cut && end === text.length && len > 0)) continue;
        hit(start, start, end);
      }
    },
  };
}

/** Published key prefixes; `bounded` ones only at the start of a word. */
const KEYS: Detector[] = [
  prefixedKey('xai-', 'A-Za-z0-9', 20),
  prefixedKey('sk-ant-', 'A-Za-z0-9_-', 20),
  prefixedKey('sk-proj-', 'A-Za-z0-9_-', 20),
  prefixedKey('AKIA', '0-9A-Z', 16, 16),
  prefixedKey('gh[pousr]_', 'A-Za-z0-9', 30),
  prefixedKey('github_pat_', 'A-Za-z0-9_', 30),
  prefixedKey('glpat-', 'A-Za-z0-9_-', 20),
  prefixedKey('xox[abposr]-', 'A-Za-z0-9-', 10),
  prefixedKey('AIza', '0-9A-Za-z_-', 35, 35),
  prefixedKey('sk_live_', '0-9A-Za-z', 20),
  prefixedKey('hf_', 'A-Za-z0-9', 30),
  prefixedKey('sk-', 'A-Za-z0-9_-', 20, undefined, true),
  prefixedKey('ASIA', '0-9A-Z', 16, 16, true),
];

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY-----/g;

/** A PEM private key: a BEGIN line, then the first END line after it (every END found once, in one pass). */
const pem: Detector = {
  kind: 'pem-private-key',
  find(text, hit, cut) {
    if (!text.includes('-----BEGIN ')) return;
    const ends: Array<[number, number]> = [];
    PEM_END.lastIndex = 0;
    for (let m = PEM_END.exec(text); m; m = PEM_END.exec(text)) ends.push([m.index, PEM_END.lastIndex]);
    if (!ends.length && !cut) return;
    let e = 0;
    PEM_BEGIN.lastIndex = 0;
    for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
      while (e < ends.length && ends[e]![0] < PEM_BEGIN.lastIndex) e++;
      if (e === ends.length) {
        // Cut before its END line: the key runs on past the cut.
        if (cut) hit(m.index, m.index, text.length);
        return;
      }
      hit(m.index, m.index, ends[e]![1]);
      PEM_BEGIN.lastIndex = ends[e]![1];
    }
  },
};

const JWT_SEGMENT = /[A-Za-z0-9_-]*/y;

/**
 * A JSON Web Token: `eyJ…` `.eyJ…` `.…`, each part at least 8 characters, at the start of a word. In a cut text, a
 * token whose parts so far reach the end (however short) is one.
 */
const jwt: Detector = {
  kind: 'jwt',
  find(text, hit, cut) {
    let jwtStart = 0;
    const open = (at: number): boolean => {
      if (!cut || at < text.length) return false;
      hit(jwtStart, jwtStart, text.length);
      return true;
    };
    let from = 0;
    for (;;) {
      const c = text.indexOf('eyJ', from);
      if (c === -1) return;
      from = c + 1;
      if (c > 0 && isWordChar(text.charCodeAt(c - 1))) continue;
      jwtStart = c;
      const e1 = runEnd(JWT_SEGMENT, text, c + 3);
      // Any later `eyJ` inside this first part ends it at the same place, shorter: skip past it.
      from = e1;
      if (open(e1)) return;
      if (e1 - c < 11 || text.charCodeAt(e1) !== 46) continue;
      // Cut inside the second part's `eyJ`.
      if (cut && e1 + 4 > text.length && 'eyJ'.startsWith(text.slice(e1 + 1)) && open(text.length)) return;
      if (!text.startsWith('eyJ', e1 + 1)) continue;
      const e2 = runEnd(JWT_SEGMENT, text, e1 + 4);
      // The second part's `eyJ` may start a token of its own: look again from there.
      from = e1 + 1;
      if (open(e2)) return;
      if (e2 - e1 < 12 || text.charCodeAt(e2) !== 46) continue;
      const e3 = runEnd(JWT_SEGMENT, text, e2 + 1);
      if (open(e3)) return;
      if (e3 - e2 < 9) continue;
      hit(c, c, e3);
      from = e3;
    }
  },
};

/**
 * A header (`Authorization: Bearer …`, `Cookie: …`): the name and scheme kept, the value replaced. Each part is
 * read once by a sticky expression (no backtracking between the optional scheme and the spaces around it).
 */
const ALNUM = /[A-Za-z0-9]/;

function header(kind: string, name: RegExp, value: RegExp, scheme?: RegExp): Detector {
  const spaces = /[ \t]*/y;
  return {
    kind,
    find(text, hit) {
      name.lastIndex = 0;
      for (let m = name.exec(text); m; m = name.exec(text)) {
        let at = runEnd(spaces, text, name.lastIndex);
        if (scheme) {
          scheme.lastIndex = at;
          if (scheme.exec(text)) at = runEnd(spaces, text, scheme.lastIndex);
        }
        value.lastIndex = at;
        if (!value.exec(text) || value.lastIndex === at) continue;
        // A value without a letter or a digit (`Authorization: Bearer)` in prose) holds no credential.
        if (!ALNUM.test(text.slice(at, value.lastIndex))) continue;
        hit(m.index, at, value.lastIndex);
        name.lastIndex = value.lastIndex;
      }
    },
  };
}

const SECRET_NAME = /(?:_KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD|_PWD)$/;
/** A whole upper-case word: one greedy run, nothing after it to backtrack for. */
const UPPER_WORD = /\b[A-Z][A-Z0-9_]*/g;
const ASSIGN = /[ \t]*[=:][ \t]*/y;
/** The value of an assignment: a double- or single-quoted string (on one line), or a bare word. */
const BARE = /[^\s"'\\]*/y;

/** NAME_KEY=value, NAME_TOKEN: "value", … (the name kept, the value replaced). */
const assignment: Detector = {
  kind: 'assignment',
  find(text, hit, cut) {
    if (!/_(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|PWD)/.test(text)) return;
    let next: NextOf | undefined;
    UPPER_WORD.lastIndex = 0;
    for (let m = UPPER_WORD.exec(text); m; m = UPPER_WORD.exec(text)) {
      if (!SECRET_NAME.test(m[0])) continue;
      ASSIGN.lastIndex = UPPER_WORD.lastIndex;
      if (!ASSIGN.exec(text)) continue;
      const at = ASSIGN.lastIndex;
      const end = valueEnd(text, at, BARE, (next ??= new NextOf(text)), cut);
      if (end === -1) continue;
      // Past the value whatever it is: a placeholder's value is not read again for a name inside it
      // (`A_KEY=$A_KEY=$A_KEY=…` once took seconds for 70 KB).
      UPPER_WORD.lastIndex = end;
      if (isPlaceholder(text.slice(at, end))) continue;
      hit(m.index, at, end);
    }
  },
};

export const BUILTIN_DETECTORS: readonly Detector[] = [
  pem,
  jwt,
  ...KEYS,
  header('auth-header', /\b(?:Proxy-)?Authorization:/gi, /[^\s"'\\]+/y, /(?:Bearer|Basic|Token|Bot)/iy),
  header('cookie-header', /\b(?:Set-)?Cookie:/gi, /[^\r\n"\\]+/y),
  assignment,
  ...passwordDetectors,
];

/**
 * The built-in detectors behind the prefilter of literals.ts (`mayHoldKeyedSecret`); the passwords' two look for
 * their literal first themselves (a URL or a `pass` is far more common than the others' literals: the whole table
 * does not run for them).
 */
const PREFILTERED: ReadonlySet<Detector> = new Set(BUILTIN_DETECTORS.filter((d) => !passwordDetectors.includes(d)));

/** The kinds the built-in detectors report, in table order. */
export const BUILTIN_KINDS: readonly string[] = [...new Set(BUILTIN_DETECTORS.map((d) => d.kind))];

/**
 * Every match of the detectors in `text`, in text order. Where matches overlap, the detector listed first wins
 * (a key inside an Authorization header is the key), then the earlier match.
 */
export function findSecrets(
  text: string,
  detectors: readonly Detector[] = BUILTIN_DETECTORS,
  /** The text was cut at its end from a longer one: a secret reaching the end is reported (cut.ts). */
  cut = false,
): SecretMatch[] {
  /** Matches of the detectors before the current one, sorted by start and never overlapping. */
  let taken: SecretMatch[] = [];
  let hinted: boolean | undefined;
  for (const d of detectors) {
    if (PREFILTERED.has(d) && !(hinted ??= mayHoldKeyedSecret(text))) continue;
    const found: SecretMatch[] = [];
    d.find(
      text,
      (start, valueStart, end) => {
        if (valueStart < end && !overlaps(taken, start, end)) found.push({ kind: d.kind, start, end, valueStart });
      },
      cut,
    );
    if (found.length) taken = [...taken, ...found].sort((a, b) => a.start - b.start);
  }
  return taken;
}

/** Whether [start, end) overlaps a match of the sorted, disjoint list (binary search: no quadratic scan). */
function overlaps(sorted: readonly SecretMatch[], start: number, end: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo]!.start < end;
}
