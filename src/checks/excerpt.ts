/**
 * A short excerpt of user text for a finding's message (a prompt a history still holds): white space run together,
 * every secret the detectors find replaced by `[REDACTED:<kind>]` before the cut, then cut to `max` characters
 * with `…`. A history holds what the user typed, keys pasted into prompts included: never more than this is shown.
 */
import { findSecrets } from '../secrets/detectors.js';

export function excerpt(text: string, max = 60): string {
  const matches = findSecrets(text);
  let out = '';
  let at = 0;
  for (const m of matches) {
    out += `${text.slice(at, m.valueStart)}[REDACTED:${m.kind}]`;
    at = m.end;
  }
  out = (out + text.slice(at)).replace(/\s+/g, ' ').trim();
  if (out.length <= max) return out;
  // Never cut inside a redaction mark: it would read as text the user typed.
  let cut = max - 1;
  const open = out.lastIndexOf('[REDACTED:', cut);
  if (open >= 0 && out.indexOf(']', open) >= cut) cut = open;
  return `${out.slice(0, cut).trimEnd()}\u2026`;
}
