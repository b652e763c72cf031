/**
 * `workspace.yaml` (formats/copilot-cli.md §1.4): flat YAML the CLI writes, one `key: value` per line; a value is a
 * plain scalar, a double- or single-quoted one, or a block scalar (`|-` and its indented lines). Read by this small
 * reader, never evaluated: anything else (nesting, anchors, tags) is kept as the text it is. Values are strings;
 * `summary_count` is read as a number by its user.
 */

export interface Workspace {
  values: Map<string, string>;
  /** Lines that are not `key: value` (or a block scalar's continuation). */
  strange: number;
}

/** A double-quoted YAML scalar's value (JSON escapes, plus YAML's `\x` and `\U`), or the text when it does not read. */
function doubleQuoted(s: string): string {
  const json = s.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1').replace(/\\U([0-9a-fA-F]{8})/g, (_m, h: string) => {
    const cp = Number.parseInt(h, 16);
    return cp <= 0x10ffff ? JSON.stringify(String.fromCodePoint(cp)).slice(1, -1) : '';
  });
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'string' ? v : s;
  } catch {
    return s.slice(1, -1);
  }
}

const scalar = (raw: string): string => {
  const t = raw.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return doubleQuoted(t);
  if (t.length >= 2 && t.startsWith("'") && t.endsWith("'")) return t.slice(1, -1).replaceAll("''", "'");
  return t;
};

export function parseWorkspace(text: string): Workspace {
  const values = new Map<string, string>();
  let strange = 0;
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/.exec(line);
    if (!m) {
      strange++;
      continue;
    }
    const key = m[1]!;
    const rest = m[2] ?? '';
    if (/^[|>][-+]?\s*$/.test(rest)) {
      const block: string[] = [];
      while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]!) || lines[i + 1] === '')) block.push(lines[++i]!);
      const indent = Math.min(...block.filter((b) => b.trim() !== '').map((b) => /^\s*/.exec(b)![0].length), 99);
      const body = block.map((b) => b.slice(indent));
      const joined = rest.startsWith('>') ? body.join(' ') : body.join('\n');
      values.set(key, rest.includes('-') ? joined.replace(/\n+$/, '') : joined);
      continue;
    }
    values.set(key, scalar(rest));
  }
  return { values, strange };
}
