/** Shared pieces of the damaged corpora: the case shape, the standard session tree, and line-level edit helpers. */
import { GROUP, IDS, finishMainSession, mainSessionUntilFork, subagentSession } from './clean-root.js';
import type { OracleEvent } from './grok-builder.js';

export interface Expectation {
  code: string;
  file: string;
  /** The session the finding is on (an id, or the end of its path). */
  session?: string;
  line?: number;
  severity?: 'error' | 'warning' | 'note';
}

/**
 * What the test harness applies to a scratch copy before the command, for what git cannot store: a special file,
 * a mode (git keeps only the executable bit; a checkout's modes follow the umask), or a name that is not valid UTF-8
 * (some file systems refuse one): `rename` is moved to `to`, where each `\xHH` is that byte (read/names.ts).
 */
export type Setup = { mkfifo: string } | { chmod: string; mode: string } | { rename: string; to: string };

export interface Symlink {
  symlink: string;
}
export type Content = string | Buffer | Symlink;
export type Files = Map<string, Content>;

export interface Case {
  name: string;
  description: string;
  must: string[];
  /** Codes that may appear as a side effect; every other code must not. */
  allow?: string[];
  /** Codes that must appear exactly at the `at` locations and nowhere else. */
  onlyAt?: string[];
  /** Severities no finding may reach (legitimate-cause cases: "must not be an error"). */
  maxSeverity?: 'warning' | 'note';
  at?: Expectation[];
  /**
   * Run this command instead of audit (`inspect` takes one session: `target`, relative to the case). With audit,
   * `target` audits that path of the case instead of the whole case.
   */
  command?: 'inspect';
  target?: string;
  /** Extra command-line arguments; paths in them are relative to the case directory. */
  args?: string[];
  /** The expected timeline of one session (checked by the timeline test). */
  timeline?: { session: string; args: string[]; events: OracleEvent[] };
  setup?: Setup[];
  files: Files;
}

export const SESSION_DIR = `sessions/${GROUP}/${IDS.main}`;

/** The finished main session's files (relative to its directory). */
export function mainFiles(): Files {
  const s = mainSessionUntilFork();
  finishMainSession(s);
  return s.render();
}

/** Files of a session placed in its directory under the case root. */
export function place(files: Files, dir = SESSION_DIR): Files {
  return new Map([...files].map(([p, c]) => [`${dir}/${p}`, c]));
}

/** The main session (edited) and its subagent's own session, in the real layout. */
export function caseTree(main: Files): Files {
  const tree = place(main);
  for (const [p, c] of subagentSession().render()) tree.set(`sessions/${GROUP}/${IDS.sub}/${p}`, c);
  return tree;
}

export const text = (c: Content | undefined): string => {
  if (c === undefined || (typeof c === 'object' && 'symlink' in c)) throw new Error('missing file');
  return typeof c === 'string' ? c : c.toString('utf8');
};

export const lines = (c: string): string[] => c.split('\n').slice(0, -1);
export const joinLines = (ls: string[]): string => `${ls.join('\n')}\n`;

/** 1-based number of the first line matching `re` (from line `from`). */
export function lineOf(content: string, re: RegExp, from = 1): number {
  const ls = lines(content);
  for (let i = from - 1; i < ls.length; i++) if (re.test(ls[i]!)) return i + 1;
  throw new Error(`no line matches ${re}`);
}

export function editJson(f: Files, path: string, edit: (v: Record<string, unknown>) => void): void {
  const v = JSON.parse(text(f.get(path))) as Record<string, unknown>;
  edit(v);
  f.set(path, `${JSON.stringify(v, null, 2)}\n`);
}

/** Remove updates.jsonl lines (1-based) and keep num_messages consistent, as if they had never been appended. */
export function dropUpdates(f: Files, ...lineNos: number[]): void {
  const ls = lines(text(f.get('updates.jsonl'))).filter((_, i) => !lineNos.includes(i + 1));
  f.set('updates.jsonl', joinLines(ls));
  editJson(f, 'summary.json', (s) => {
    s.num_messages = ls.length;
  });
}

/** Insert updates.jsonl lines before line `at` (1-based) and count them, as committed appends. */
export function insertUpdates(f: Files, at: number, ...records: unknown[]): void {
  const ls = lines(text(f.get('updates.jsonl')));
  ls.splice(at - 1, 0, ...records.map((r) => JSON.stringify(r)));
  f.set('updates.jsonl', joinLines(ls));
  editJson(f, 'summary.json', (s) => {
    s.num_messages = ls.length;
  });
}

/** Rewrite chat_history.jsonl lines with `edit` and keep num_chat_messages consistent. */
export function editChat(f: Files, edit: (ls: string[]) => string[]): void {
  const ls = edit(lines(text(f.get('chat_history.jsonl'))));
  f.set('chat_history.jsonl', joinLines(ls));
  editJson(f, 'summary.json', (s) => {
    s.num_chat_messages = ls.length;
  });
}

export function mutate(
  name: string,
  description: string,
  must: string[],
  edit: (f: Files) => Expectation[] | undefined,
  extra: Partial<Case> = {},
): Case {
  const f = mainFiles();
  const at = edit(f) ?? [];
  return { name, description, must, at, ...extra, files: caseTree(f) };
}

/** Nesting a little past the readers' limit (MAX_JSON_DEPTH, 512): the corpora's JSONL_TOO_DEEP lines stay small. */
export const TOO_DEEP = 600;

/** `inner` (JSON text) wrapped in `depth` objects: {"x":{"x":…inner…}}. */
export const nestedJson = (inner: string, depth = TOO_DEEP): string =>
  `${'{"x":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

/** A JSONL line whose first "content" value is wrapped `depth` objects deep (the rest of the line as it was). */
export function deepenContent(line: string, depth = TOO_DEEP): string {
  const at = line.indexOf('"content":');
  if (at < 0) throw new Error('no content in the line');
  const record = JSON.parse(line) as unknown;
  const take = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return undefined;
    const o = v as Record<string, unknown>;
    if (!Array.isArray(v) && 'content' in o) {
      const c = o.content;
      o.content = '@@DEEP@@';
      return c;
    }
    for (const x of Object.values(o)) {
      const c = take(x);
      if (c !== undefined) return c;
    }
    return undefined;
  };
  const content = take(record);
  return JSON.stringify(record).replace('"@@DEEP@@"', nestedJson(JSON.stringify(content ?? null), depth));
}
