/**
 * Secrets in a text cut short. A summary keeps a text's first 120 characters and ends with `…`, a finding quotes
 * a command clipped the same way, a tool's title is kept to 120 characters: a secret the cut goes through leaves
 * its first characters, often too few for its detector to know it (an `xai-` key needs 20 after its prefix), so
 * redacting the cut text afterwards would keep them. Here a cut is where a secret may run on: `findInCut` reports,
 * besides every whole secret, a secret reaching a cut as far as it goes (detectors.ts, `cut`), and `cutClear` cuts
 * a text before any secret the cut would go through. No fragment of a secret a detector knows survives either.
 */
import { BUILTIN_DETECTORS, findSecrets, type Detector, type SecretMatch } from './detectors.js';

/** What marks a cut: every clipped text of the tool ends its kept part with it. */
export const CUT_MARK = '\u2026';

/**
 * Every secret of a text where each `…` may be where a longer text was cut (and its end too, with `cutAtEnd`):
 * whole secrets, and a secret reaching a cut however little of it is left. Matches never span a `…`.
 */
export function findInCut(
  text: string,
  detectors: readonly Detector[] = BUILTIN_DETECTORS,
  cutAtEnd = false,
): SecretMatch[] {
  if (!text.includes(CUT_MARK)) return findSecrets(text, detectors, cutAtEnd);
  const out: SecretMatch[] = [];
  for (let from = 0; from <= text.length; ) {
    const mark = text.indexOf(CUT_MARK, from);
    const end = mark === -1 ? text.length : mark;
    if (end > from) {
      const part = text.slice(from, end);
      for (const m of findSecrets(part, detectors, mark !== -1 || cutAtEnd))
        out.push({ ...m, start: m.start + from, valueStart: m.valueStart + from, end: m.end + from });
    }
    if (mark === -1) break;
    from = mark + CUT_MARK.length;
  }
  return out;
}

/**
 * `text` kept to its first `n` characters (UTF-16 units), or fewer: when the cut would go through a secret, the
 * text is cut where the secret's value starts (the name or header before it stays; so is a secret that ends right
 * at the cut, which may as well run on). A secret that ends before the cut stays whole, for the redaction that
 * follows to find. The same text and `n` give the same cut.
 */
export function cutClear(text: string, n: number, detectors: readonly Detector[] = BUILTIN_DETECTORS): string {
  if (text.length <= n) return text;
  const kept = text.slice(0, n);
  const last = findSecrets(kept, detectors, true).at(-1);
  return last && last.end === kept.length ? kept.slice(0, last.valueStart) : kept;
}
