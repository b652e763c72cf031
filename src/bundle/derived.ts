/**
 * With `--redact`, the members derived from the sessions (audit report, timelines, inventory, bag-info, custody
 * statement) must not carry what the payload's redaction removed. Each is redacted with the same detectors, then
 * scrubbed of every secret value the payload held, whole or cut short (a finding message or a timeline summary
 * quotes at most a line's first characters, so a key may appear clipped, where no detector recognises it).
 */
import { findSecrets } from '../secrets/detectors.js';
import { redactJsonLine, redactText, type Redactor } from './redact.js';

/** The secret values found in the payload (value → kind), kept in memory only while the bag is built. */
export type SecretLedger = Map<string, string>;

/** A clipped quote of a secret is scrubbed when it keeps at least this many of its first characters. */
export const MIN_FRAGMENT = 12;

const trimQuotes = (v: string): string => v.replace(/^["']+|["']+$/g, '');

/** Record the secret values the redactor's detectors find in `text` (the parts a redaction replaces). */
export function noteSecrets(text: string, r: Redactor, ledger: SecretLedger): void {
  // The same matches redactText replaces: a leading header or variable name is kept, the rest is the secret.
  for (const m of findSecrets(text, r.patterns)) {
    const value = trimQuotes(text.slice(m.valueStart, m.end));
    if (value.length) ledger.set(value, m.kind);
  }
}

/** Note the secrets of one JSON line: in its raw text and in every string it holds once decoded. */
export function noteJsonLine(line: string, r: Redactor, ledger: SecretLedger): void {
  noteSecrets(line, r, ledger);
  let doc: unknown;
  try {
    doc = JSON.parse(line);
  } catch {
    return;
  }
  const walk = (v: unknown): void => {
    if (typeof v === 'string') noteSecrets(v, r, ledger);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        walk(k);
        walk(x);
      }
  };
  walk(doc);
}

/** Replace every occurrence of a ledger value, or of a clipped start of it, with `[REDACTED:<kind>]`. */
export function scrubSecrets(text: string, ledger: SecretLedger): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...ledger].sort(([a], [b]) => b.length - a.length);
  for (const [value, kind] of values) {
    for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
      const head = form.slice(0, Math.min(MIN_FRAGMENT, form.length));
      if (head.length < Math.min(8, form.length) || head.length < 4) continue;
      let from = 0;
      let result = '';
      for (let i = out.indexOf(head); i !== -1; i = out.indexOf(head, from)) {
        let k = head.length;
        while (k < form.length && out[i + k] === form[k]) k++;
        // Never cut a JSON escape in half.
        let slashes = 0;
        while (slashes < k && out[i + k - 1 - slashes] === '\\') slashes++;
        if (slashes % 2) k--;
        result += `${out.slice(from, i)}[REDACTED:${kind}]`;
        from = i + k;
      }
      out = result + out.slice(from);
    }
  }
  return out;
}

/** How a derived member is laid out, for redaction. */
export type DerivedKind = 'json' | 'text';

/**
 * A derived member made fit to share: JSON (one document or JSON Lines) is redacted string by string, line by
 * line (a pretty-printed document never has a string across lines); text whole; then scrubbed of the ledger.
 * Uses a redactor of its own, so the payload's counts stay what the payload held.
 */
export function redactDerived(bytes: Buffer, kind: DerivedKind, r: Redactor, ledger: SecretLedger): Buffer {
  const own: Redactor = { patterns: r.patterns, counts: new Map() };
  // Clipped: a summary or a quote cut short where it holds `…` keeps no start of a secret either (secrets/cut.ts).
  if (kind === 'text')
    return Buffer.from(scrubSecrets(redactText(bytes.toString('utf8'), own, true).text, ledger), 'utf8');
  // Line by line, keeping the bytes of every line that does not change (a timeline can be large).
  const out: Buffer[] = [];
  for (let start = 0; start <= bytes.length; ) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl;
    const line = bytes.subarray(start, end);
    const s = line.toString('utf8');
    const t = scrubSecrets(redactJsonLine(s, own, true).text, ledger);
    out.push(t === s ? line : Buffer.from(t, 'utf8'));
    if (nl === -1) break;
    out.push(NEWLINE);
    start = nl + 1;
  }
  return Buffer.concat(out);
}

const NEWLINE = Buffer.from('\n');
