/**
 * Redaction for sharing: secrets inside JSON strings become `[REDACTED:<kind>]` and every other byte of the line
 * stays as it was, so each line still parses. Plain text files are redacted as text. Deterministic. The detectors
 * are the shared table of secrets/ (linear-time: RE2).
 */
import { findInCut } from '../secrets/cut.js';
import { BUILTIN_DETECTORS, findSecrets, type Detector } from '../secrets/detectors.js';
import { userDetectors } from '../secrets/user-patterns.js';

export type { Detector as Pattern } from '../secrets/detectors.js';

export interface Redactor {
  /** The detectors, built-in first (one table with the SECRET_IN_SESSION check: secrets/detectors.ts). */
  patterns: readonly Detector[];
  counts: Map<string, number>;
}

/** A redactor with the built-in detectors and the user's patterns (refused with one line if RE2 cannot run them). */
export function redactor(custom: readonly string[] = []): Redactor {
  return { patterns: [...BUILTIN_DETECTORS, ...userDetectors(custom)], counts: new Map() };
}

/**
 * Redact plain text; returns the text and how many replacements were made. `clipped`: the text may have been cut
 * where it holds `…` (a summary, a finding quoting a clipped command): a secret reaching one is replaced as far as
 * it goes, however little of it is left (secrets/cut.ts).
 */
export function redactText(text: string, r: Redactor, clipped = false): { text: string; n: number } {
  const found = clipped ? findInCut(text, r.patterns) : findSecrets(text, r.patterns);
  if (!found.length) return { text, n: 0 };
  let out = '';
  let at = 0;
  for (const m of found) {
    r.counts.set(m.kind, (r.counts.get(m.kind) ?? 0) + 1);
    // A header or variable name before the value is kept; only the value is replaced.
    out += `${text.slice(at, m.valueStart)}[REDACTED:${m.kind}]`;
    at = m.end;
  }
  return { text: out + text.slice(at), n: found.length };
}

/**
 * Redact inside the JSON string literals of one line: each string token is decoded, redacted and re-encoded
 * only if something changed. Everything between strings is untouched, so a line that parsed still parses.
 * An unterminated string (a torn line) is redacted as raw text. `clipped`: as for redactText, in every string.
 */
export function redactJsonLine(line: string, r: Redactor, clipped = false): { text: string; n: number } {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < line.length) {
    const q = line.indexOf('"', i);
    if (q === -1) {
      out += line.slice(i);
      break;
    }
    out += line.slice(i, q);
    let j = q + 1;
    while (j < line.length && line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
    if (j >= line.length) {
      const t = redactText(line.slice(q), r, clipped);
      out += t.text;
      n += t.n;
      break;
    }
    const token = line.slice(q, j + 1);
    let value: string;
    try {
      value = JSON.parse(token) as string;
    } catch {
      out += token;
      i = j + 1;
      continue;
    }
    const t = redactText(value, r, clipped);
    out += t.n ? JSON.stringify(t.text) : token;
    n += t.n;
    i = j + 1;
  }
  return { text: out, n };
}
