/**
 * Redaction for sharing: secrets inside JSON strings become `[REDACTED:<kind>]` and every other byte of the line
 * stays as it was, so each line still parses. Plain text files are redacted as text. Deterministic.
 */

/** The value of an assignment: a double- or single-quoted string, or a bare word. */
const ASSIGNED = `(?:"[^"\\n]*"|'[^'\\n]*'|[^\\s"'\\\\]+)`;

/** Provider API keys, by their published prefixes. */
const API_KEYS = [
  'xai-[A-Za-z0-9]{20,}',
  'sk-ant-[A-Za-z0-9_-]{20,}',
  'sk-(?:proj-)?[A-Za-z0-9_-]{20,}',
  'AKIA[0-9A-Z]{16}',
  'ASIA[0-9A-Z]{16}',
  'gh[pousr]_[A-Za-z0-9]{30,}',
  'github_pat_[A-Za-z0-9_]{30,}',
  'glpat-[A-Za-z0-9_-]{20,}',
  'xox[abposr]-[A-Za-z0-9-]{10,}',
  'AIza[0-9A-Za-z_-]{35}',
  'sk_live_[0-9A-Za-z]{20,}',
  'hf_[A-Za-z0-9]{30,}',
];

export interface Pattern {
  kind: string;
  re: RegExp;
}

export const BUILTIN_PATTERNS: readonly Pattern[] = [
  { kind: 'pem-private-key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----/g },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  {
    kind: 'api-key',
    re: new RegExp(`\\b(?:${API_KEYS.join('|')})\\b`, 'g'),
  },
  { kind: 'auth-header', re: /\b((?:Proxy-)?Authorization:[ \t]*(?:Bearer|Basic|Token|Bot)?[ \t]*)[^\s"'\\]+/gi },
  { kind: 'cookie-header', re: /\b((?:Set-)?Cookie:[ \t]*)[^\r\n"\\]+/gi },
  {
    kind: 'assignment',
    // NAME_KEY=value, NAME_TOKEN: "value", … (the name kept, the value replaced)
    re: new RegExp(
      `\\b([A-Z][A-Z0-9_]*(?:_KEY|_TOKEN|_SECRET|_PASSWORD|_PASSWD|_PWD)[ \\t]*[=:][ \\t]*)${ASSIGNED}`,
      'g',
    ),
  },
];

export interface Redactor {
  patterns: readonly Pattern[];
  counts: Map<string, number>;
}

export function redactor(custom: readonly string[] = []): Redactor {
  const patterns = [
    ...BUILTIN_PATTERNS,
    ...custom.map((src, i) => ({ kind: custom.length > 1 ? `custom-${i + 1}` : 'custom', re: new RegExp(src, 'g') })),
  ];
  return { patterns, counts: new Map() };
}

/** Redact plain text; returns the text and how many replacements were made. */
export function redactText(text: string, r: Redactor): { text: string; n: number } {
  let n = 0;
  let out = text;
  for (const p of r.patterns) {
    out = out.replace(p.re, (...m: unknown[]) => {
      n++;
      r.counts.set(p.kind, (r.counts.get(p.kind) ?? 0) + 1);
      // Patterns with a leading group keep it (the header or variable name) and replace only the value.
      const keep = typeof m[1] === 'string' && m.length > 3 ? m[1] : '';
      return `${keep}[REDACTED:${p.kind}]`;
    });
  }
  return { text: out, n };
}

/**
 * Redact inside the JSON string literals of one line: each string token is decoded, redacted and re-encoded
 * only if something changed. Everything between strings is untouched, so a line that parsed still parses.
 * An unterminated string (a torn line) is redacted as raw text.
 */
export function redactJsonLine(line: string, r: Redactor): { text: string; n: number } {
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
      const t = redactText(line.slice(q), r);
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
    const t = redactText(value, r);
    out += t.n ? JSON.stringify(t.text) : token;
    n += t.n;
    i = j + 1;
  }
  return { text: out, n };
}
