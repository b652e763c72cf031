/**
 * Secrets in a text cut short. A summary keeps a text's first 120 characters and ends with `…`, a finding quotes
 * a command clipped the same way, a tool's title is kept to 120 characters: a secret the cut goes through leaves
 * its first characters, often too few for its detector to know it (an `xai-` key needs 20 after its prefix), so
 * redacting the cut text afterwards would keep them. Here a cut is where a secret may run on: `findInCut` reports,
 * besides every whole secret, a secret reaching a cut as far as it goes (detectors.ts, `cut`), so that redacting
 * with it (bundle/redact.ts, `clipped`) leaves no fragment of a secret a detector knows.
 */
import { BUILTIN_DETECTORS, findSecrets, type Detector, type SecretMatch } from './detectors.js';

/** What marks a cut: the tool's clipped texts (summaries, quotes in findings, tool titles) end with it. */
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
