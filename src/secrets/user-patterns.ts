/**
 * A user's extra secret patterns (`--redact-pattern`): compiled on RE2, a linear-time engine, so no pattern can
 * make a run last for ever (`(a+)+$` ends at once). What RE2 cannot run (backreferences, lookaround) is refused
 * with one line, before anything is read.
 */
import { RE2JS } from 're2js';
import { UsageError } from '../errors.js';
import type { Detector } from './detectors.js';

export function userDetector(source: string, kind: string, option = '--redact-pattern'): Detector {
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    throw new UsageError(
      `${option} ${JSON.stringify(source)}: not a valid regular expression for the linear-time engine (RE2 ` +
        `syntax, no backreferences or lookaround): ${(e as Error).message.split('\n')[0]}`,
    );
  }
  if (re.matcher('').find()) throw new UsageError(`${option} ${JSON.stringify(source)}: matches the empty string`);
  return {
    kind,
    find(text, hit) {
      const m = re.matcher(text);
      while (m.find()) if (m.end() > m.start()) hit(m.start(), m.start(), m.end());
    },
  };
}

/** The detectors of a list of user patterns: kind `custom`, or `custom-N` when there are several. */
export function userDetectors(sources: readonly string[], option?: string): Detector[] {
  return sources.map((s, i) => userDetector(s, sources.length > 1 ? `custom-${i + 1}` : 'custom', option));
}
