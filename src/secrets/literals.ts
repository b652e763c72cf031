/**
 * The literals every built-in secret holds (detectors.ts): the cheap tests that rule a string out before any
 * detector runs (`mayHoldSecret`), and that rule out a secret running from one streamed chunk into the next
 * (`mayStartSecret`, for junction.ts). A detector added to the table adds its literal here: test/secrets.test.ts
 * finds every planted kind through `mayHoldSecret`, test/secret-junction-pruning.test.ts splits each one through
 * `mayStartSecret`.
 */

/**
 * Every built-in match holds one of these literals, spelled as its detector spells it: the keys' prefixes, the
 * JWT's and PEM's starts, the assignment's names and a URI's `://` case-sensitively, the two header names and a
 * password's key (`pass`, `pwd`) in any case. A match's literal starts at or before the secret's value (a key's
 * prefix starts it; a header's name, an assignment's name, a password's key and a URI's `://` come before it):
 * what lets a junction be ruled out from the earlier string alone (junction.ts).
 */
const HINTS_CASED = [
  'xai-',
  'sk-',
  'sk_live_',
  'AKIA',
  'ASIA',
  ...[...'pousr'].map((c) => `gh${c}_`),
  'github_pat_',
  'glpat-',
  ...[...'abposr'].map((c) => `xox${c}-`),
  'AIza',
  'hf_',
  'eyJ',
  '-----BEGIN ',
  '_KEY',
  '_TOKEN',
  '_SECRET',
  '_PASSWORD',
  '_PASSWD',
  '_PWD',
];
const HINTS_ANY_CASE = ['authorization:', 'cookie:'];
/** The passwords' literals (passwords.ts): a URI's `://`, and a password's key in any case. */
const PASSWORD_CASED = ['://'];
const PASSWORD_ANY_CASE = ['pass', 'pwd'];
/** Every literal, cased and any-case (raw-literals.ts searches a log's raw bytes for them). */
export const LITERALS: { cased: readonly string[]; anyCase: readonly string[] } = {
  cased: [...HINTS_CASED, ...PASSWORD_CASED],
  anyCase: [...HINTS_ANY_CASE, ...PASSWORD_ANY_CASE],
};
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** Text without one of the literals (one linear pass each; the header names only where there is a colon). */
const HINT_CASED = new RegExp(HINTS_CASED.map(escapeRe).join('|'));
const HINT_ANY_CASE = new RegExp(HINTS_ANY_CASE.map(escapeRe).join('|'), 'i');
const PASSWORD_KEY = new RegExp(PASSWORD_ANY_CASE.map(escapeRe).join('|'), 'i');

/**
 * Whether `text` may hold a secret of the detectors of detectors.ts, the passwords' aside (false: it holds none).
 * Only these run the whole table: a URL or a `pass` (far more common) runs the two password detectors alone.
 */
export const mayHoldKeyedSecret = (text: string): boolean =>
  HINT_CASED.test(text) || (text.includes(':') && HINT_ANY_CASE.test(text));

/** Whether `text` may hold a password (passwords.ts): a URI's `://`, or a key and what assigns to it. */
export const mayHoldPassword = (text: string): boolean =>
  text.includes('://') || ((text.includes('=') || text.includes(':')) && PASSWORD_KEY.test(text));

/** Both of the above in two passes (what a caller that scans every string asks first). */
const ALL_CASED = new RegExp([...HINTS_CASED, ...PASSWORD_CASED].map(escapeRe).join('|'));
const ALL_ANY_CASE = new RegExp([...HINTS_ANY_CASE, ...PASSWORD_ANY_CASE].map(escapeRe).join('|'), 'i');

/** Whether `text` may hold a built-in secret (false: it certainly holds none). */
export const mayHoldSecret = (text: string): boolean =>
  ALL_CASED.test(text) || ((text.includes(':') || text.includes('=')) && ALL_ANY_CASE.test(text));

/** The proper prefixes of the literals, by their last character (header names lower-cased). */
const PREFIXES_BY_LAST = new Map<number, Array<{ prefix: string; anyCase: boolean }>>();
for (const [list, anyCase] of [
  [[...HINTS_CASED, ...PASSWORD_CASED], false],
  [[...HINTS_ANY_CASE, ...PASSWORD_ANY_CASE], true],
] as const)
  for (const h of list)
    for (let k = 1; k < h.length; k++) {
      const prefix = h.slice(0, k);
      const last = prefix.charCodeAt(k - 1);
      const keys = anyCase && /[a-z]/.test(prefix[k - 1]!) ? [last, last - 32] : [last];
      for (const key of keys) {
        const at = PREFIXES_BY_LAST.get(key) ?? [];
        if (!at.some((p) => p.prefix === prefix && p.anyCase === anyCase)) at.push({ prefix, anyCase });
        PREFIXES_BY_LAST.set(key, at);
      }
    }

/**
 * Whether a built-in secret could start in `text` and run on into a string joined after it: the text holds one of
 * the literals, or ends with the start of one. When it does neither, no built-in match crosses the end of `text`
 * with its value starting before it (each match's literal starts at or before its value). `held`: what
 * `mayHoldSecret(text)` says, when the caller knows.
 */
export function mayStartSecret(text: string, held?: boolean): boolean {
  if (!text.length) return false;
  const ends = PREFIXES_BY_LAST.get(text.charCodeAt(text.length - 1));
  if (ends)
    for (const { prefix, anyCase } of ends) {
      if (anyCase ? text.slice(-prefix.length).toLowerCase() === prefix : text.endsWith(prefix)) return true;
    }
  return held ?? mayHoldSecret(text);
}
