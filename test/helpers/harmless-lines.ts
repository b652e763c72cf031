/**
 * A harmless line for each agent's logs: a record the agent writes in the normal course of a session and that no
 * check counts, placed as high in the file as such a record can go (after the line an agent's reader requires
 * first). Where no record is harmless (every line of the file is numbered or counted), a blank line, which is a
 * finding of its own (JSONL_BLANK_LINE) that the insertion is expected to cause. JSON documents get whitespace.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface Insertion {
  /** The 0-based index of the line the new line goes before (so its line number is `at + 1`). */
  at: number;
  /** Without its line ending (the file's own is added). */
  text: string;
  /** What the inserted line is itself reported as, by rule: the findings the insertion legitimately causes. */
  causes: string[];
  /** The summary.json count Grok raises with every line it appends to this log. */
  counted?: 'num_messages' | 'num_chat_messages';
}

const NL = 0x0a;

export function splitLines(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = buf.indexOf(NL); i !== -1; i = buf.indexOf(NL, start)) {
    out.push(buf.subarray(start, i));
    start = i + 1;
  }
  out.push(buf.subarray(start));
  return out;
}

type Obj = Record<string, unknown>;
const parse = (line: Buffer | undefined): Obj | undefined => {
  try {
    const v: unknown = JSON.parse(line?.toString('utf8').replace(/^\uFEFF/, '') ?? '');
    return typeof v === 'object' && v !== null ? (v as Obj) : undefined;
  } catch {
    return undefined;
  }
};
const blank = (at: number): Insertion => ({ at, text: '', causes: ['JSONL_BLANK_LINE'] });

const REMINDER = '<system-reminder>\nNo file changed since the last message.\n</system-reminder>';

function grok(file: string, lines: Buffer[]): Insertion {
  const first = parse(lines[0]);
  const name = basename(file);
  if (name === 'updates.jsonl') {
    const session = basename(dirname(file));
    // An old binary's bare ACP notification is answered in kind (and is, like every line of that file, legacy).
    if (first && !('method' in first) && 'update' in first) {
      const update = { sessionUpdate: 'available_commands_update', availableCommands: [] };
      return {
        at: 0,
        text: JSON.stringify({ sessionId: session, update }),
        causes: ['SCHEMA_LEGACY_RECORD'],
        counted: 'num_messages',
      };
    }
    // An xAI line (written at once, without an eventId), stamped with the first line's own time.
    const meta = (first?.params as Obj | undefined)?._meta as Obj | undefined;
    const ms = meta?.agentTimestampMs;
    const timestamp = typeof ms === 'number' ? Math.floor(ms / 1000) : (first?.timestamp ?? 0);
    const params = { sessionId: session, update: { sessionUpdate: 'memory_flush_started' } };
    return {
      at: 0,
      text: JSON.stringify({ timestamp, method: '_x.ai/session/update', params }),
      causes: [],
      counted: 'num_messages',
    };
  }
  if (name === 'chat_history.jsonl') {
    // A synthetic user item (no prompt index), after the system prompt that opens the history.
    if (first && 'role' in first)
      return {
        at: first.role === 'system' ? 1 : 0,
        text: JSON.stringify({ role: 'user', content: REMINDER }),
        causes: ['SCHEMA_LEGACY_RECORD'],
        counted: 'num_chat_messages',
      };
    return {
      at: first?.type === 'system' ? 1 : 0,
      text: JSON.stringify({ type: 'user', content: [{ type: 'text', text: REMINDER }] }),
      causes: [],
      counted: 'num_chat_messages',
    };
  }
  // rewind_points.jsonl holds one point per prompt, in prompt order; a quarantined copy is never appended to.
  return blank(0);
}

function claude(): Insertion {
  // Claude Code writes file-history snapshots between messages; they are outside the uuid chain.
  const id = '00000000-0000-4000-8000-00000000feed';
  const snapshot = { messageId: id, trackedFileBackups: {}, timestamp: '2026-03-10T14:00:00.000Z' };
  return {
    at: 0,
    text: JSON.stringify({ type: 'file-history-snapshot', messageId: id, snapshot, isSnapshotUpdate: false }),
    causes: [],
  };
}

function codex(lines: Buffer[]): Insertion {
  const meta = parse(lines[0]);
  // A paginated rollout numbers every line (ordinal): any record inserted is a gap or a repeat.
  if ((meta?.payload as Obj | undefined)?.history_mode === 'paginated') return blank(1);
  // A token count, after the session_meta line Codex's reader requires first, stamped with its time.
  const payload = { type: 'token_count', info: null, rate_limits: null };
  return { at: 1, text: JSON.stringify({ timestamp: meta?.timestamp, type: 'event_msg', payload }), causes: [] };
}

function pi(lines: Buffer[]): Insertion {
  // Extension state (not in the model's context), a child of the first entry: after the header Pi requires first.
  const parent = parse(lines[1]);
  const entry = {
    type: 'custom',
    id: 'feedf00d',
    parentId: parent?.id ?? null,
    timestamp: parent?.timestamp,
    customType: 'status-line',
    data: {},
  };
  return { at: 2, text: JSON.stringify(entry), causes: [] };
}

/** Every log file under an agent home, but its history. */
function* logsUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) yield* logsUnder(p);
    else if (st.isFile() && name.endsWith('.jsonl') && !/(^|_)history\.jsonl$/.test(name)) yield p;
  }
}

/**
 * A prompt history (an agent home's `history.jsonl`, Grok's per-cwd `prompt_history.jsonl`): every line is judged,
 * so the harmless line is a copy of one that names a session whose log is in the home and holds its text (the same
 * prompt recorded twice), at the top. `home` is where the logs are looked for; without one, a blank line.
 */
function history(home: string, lines: Buffer[], unreadable?: string): Insertion {
  const logs = [...logsUnder(home)].map((p) => ({ p, text: readFileSync(p, 'utf8') }));
  for (const line of lines) {
    const e = parse(line);
    const id = e?.sessionId ?? e?.session_id;
    const text = e?.display ?? e?.text ?? e?.prompt;
    if (typeof id !== 'string' || typeof text !== 'string' || text === '') continue;
    const inLog = JSON.stringify(text).slice(1, -1);
    if (logs.some((l) => l.p.slice(home.length).includes(id) && l.text.includes(inLog)))
      return { at: 0, text: datedFirst(e!, lines) ?? line.toString('utf8'), causes: [] };
  }
  // None: a blank line, which a history's judge counts as a line that is not an entry.
  return unreadable ? { at: 0, text: '', causes: [unreadable] } : blank(0);
}

/**
 * A Grok history line (`timestamp`, ISO) copied to the top is dated as the first line, so no line goes back in time
 * after it (GROK_PROMPT_HISTORY_TIME_ORDER); undefined: the line has no such time, copied as it is.
 */
function datedFirst(e: Record<string, unknown>, lines: Buffer[]): string | undefined {
  if (typeof e.timestamp !== 'string') return undefined;
  const first = lines.map((l) => parse(l)?.timestamp).find((t) => typeof t === 'string');
  return typeof first === 'string' ? JSON.stringify({ ...e, timestamp: first }) : undefined;
}

/**
 * Grok's sandbox log names no session: the harmless line is the startup of a process in a workspace no session is
 * in, dated as the earliest line (so no line goes back in time after it and no session's startup changes).
 */
function sandboxEvent(lines: Buffer[]): Insertion {
  let first: string | undefined;
  for (const l of lines) {
    const t = parse(l)?.timestamp;
    if (
      typeof t === 'string' &&
      Number.isFinite(Date.parse(t)) &&
      (first === undefined || Date.parse(t) < Date.parse(first))
    )
      first = t;
  }
  if (first === undefined) return blank(0);
  const e = { timestamp: first, event_type: 'ProfileApplied', profile: 'workspace', workspace: '/nowhere/harmless' };
  return { at: 0, text: JSON.stringify({ ...e, enforced: true }), causes: [] };
}

/**
 * The line to insert into `file` (a log of an agent of `format`); none for Hermes' state.db, a database, where a
 * finding's line is its row's id (rows are not lines: nothing inserted changes it).
 */
export function harmlessLine(format: string, file: string): Insertion | undefined {
  // Database rows have no line to insert before them.
  if ((format === 'hermes' && basename(file) === 'state.db') || (format === 'opencode' && /\.db$/.test(file)))
    return undefined;
  // A log that is one JSON document (a legacy Gemini CLI session): white space before it, as for documents.
  if (format === 'gemini' && file.endsWith('.json')) return { at: 0, text: '', causes: [] };
  // Grok's permission store is TOML: a comment line at its top.
  if (format === 'grok' && /^permission.*\.toml$/.test(basename(file)))
    return { at: 0, text: '# harmless comment', causes: [] };
  if (!file.endsWith('.jsonl') && !file.endsWith('.jsonl.corrupt'))
    throw new Error(`no harmless line known for ${format} ${file}: add one to test/helpers/harmless-lines.ts`);
  const lines = splitLines(readFileSync(file));
  if (basename(file) === 'history.jsonl' && /^\.(claude|codex)$/.test(basename(dirname(file))))
    return history(dirname(file), lines);
  // Grok's sessions live beside their cwd group's history: a line of a session of another group is not harmless.
  if (format === 'grok' && basename(file) === 'prompt_history.jsonl')
    return history(dirname(file), lines, 'GROK_PROMPT_HISTORY_UNREADABLE');
  if (format === 'grok' && basename(file) === 'sandbox-events.jsonl') return sandboxEvent(lines);
  switch (format) {
    case 'grok':
      return grok(file, lines);
    case 'claude':
      return claude();
    case 'codex':
      return codex(lines);
    case 'pi':
      return pi(lines);
    default:
      return blank(0);
  }
}

/** Insert the line (with the file's own line ending) and raise the count the agent keeps of such lines. */
export function insertLine(file: string, ins: Insertion): void {
  const lines = splitLines(readFileSync(file));
  const cr = lines.length > 1 && lines[0]!.at(-1) === 0x0d ? '\r' : '';
  lines.splice(ins.at, 0, Buffer.from(ins.text + cr));
  writeFileSync(file, Buffer.concat(lines.flatMap((l, i) => (i === 0 ? [l] : [Buffer.from('\n'), l]))));
  const summary = join(dirname(file), 'summary.json');
  if (!ins.counted || !existsSync(summary)) return;
  const text = readFileSync(summary, 'utf8');
  const field = new RegExp(`("${ins.counted}"\\s*:\\s*)(\\d+)`);
  writeFileSync(
    summary,
    text.replace(field, (_m, head: string, n: string) => `${head}${Number(n) + 1}`),
  );
}

/** Whitespace before a JSON document (a non-empty one: whitespace alone is not a document). */
export function indentJson(file: string): boolean {
  const bytes = readFileSync(file);
  if (bytes.length === 0) return false;
  writeFileSync(file, Buffer.concat([Buffer.from('\n'), bytes]));
  return true;
}
