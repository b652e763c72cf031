/**
 * A Gemini CLI session writer for the corpora, shaped line for line like what the real `@google/gemini-cli` 0.56.0
 * wrote in ../shared/external/gemini/generated-cli-0.56.0 (ChatRecordingService): the metadata line, the
 * `<session_context>` snapshot, each message appended then `{"$set":{"lastUpdated"}}`, a gemini message appended
 * again whole with its toolCalls, the v0.44+ user message of functionResponse parts; and the legacy pretty-printed
 * `.json` of CLI 0.2x (the real files of ../shared/external/gemini/entireio-cli). Deterministic ids and clock.
 */
import { createHash } from 'node:crypto';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

export const iso = (ms: number): string => new Date(ms).toISOString();
export const CONTEXT_ID = 'd04923d38bb0f6017037e74183378ef4';
export const projectHash = (dir: string): string => createHash('sha256').update(dir).digest('hex');

/** The CLI's file name: `session-<minute of creation, UTC>-<first 8 characters of the id>.jsonl`. */
export const geminiFileName = (startMs: number, id: string, ext = 'jsonl'): string =>
  `session-${iso(startMs).slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.${ext}`;

const context = (cwd: string): string =>
  "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is " +
  `Tuesday, December 1, 2026 (formatted according to the user's locale).\nMy operating system is: linux\n` +
  `- **Workspace Directories:**\n  - ${cwd}\n- **Directory Structure:**\n\n${cwd}/\n├───src/\n└───README.md\n\n\n` +
  '</session_context>';

export interface ToolSpec {
  name: string;
  args: Obj;
  output?: string;
  error?: string;
  status?: string;
  displayName?: string;
  /** The subagent session an agent tool ran (toolCalls[].agentId, v0.39+). */
  agentId?: string;
}

export class GeminiSession {
  readonly lines: Obj[] = [];
  /** Messages as the CLI holds them in memory (the history a snapshot writes). */
  readonly history: Obj[] = [];
  private clock: number;
  private n = 0;

  constructor(readonly opts: { id: string; cwd: string; startMs: number; seed: number; model?: string }) {
    this.clock = opts.startMs;
  }

  private now(step = 7): string {
    this.clock += step;
    return iso(this.clock);
  }

  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  uuid(): string {
    const h = createHash('sha256')
      .update(`${this.opts.seed}:${++this.n}`)
      .digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  private set(v: Obj): void {
    this.lines.push({ $set: v });
  }

  private touch(): void {
    this.set({ lastUpdated: iso(this.clock + 1) });
  }

  /** Line 1 and the session-context snapshot, as initialize() writes them. */
  open(kind: 'main' | 'subagent' = 'main'): this {
    const t = iso(this.clock);
    this.lines.push({
      sessionId: this.opts.id,
      projectHash: projectHash(this.opts.cwd),
      startTime: t,
      lastUpdated: t,
      kind,
      // A subagent's recorder is given the workspace directories.
      ...(kind === 'subagent' ? { directories: [this.opts.cwd] } : {}),
    });
    const ctx: Obj = {
      id: CONTEXT_ID,
      timestamp: this.now(1),
      type: 'user',
      content: [{ text: context(this.opts.cwd) }],
    };
    this.history.push(ctx);
    this.set({ messages: [ctx], lastUpdated: ctx.timestamp as string });
    return this;
  }

  private push(m: Obj): Obj {
    this.lines.push(m);
    const at = this.history.findIndex((h) => h.id === m.id);
    if (at >= 0) this.history[at] = m;
    else this.history.push(m);
    return m;
  }

  user(text: string): string {
    const m = this.push({ id: this.uuid(), timestamp: this.now(20), type: 'user', content: [{ text }] });
    this.touch();
    return m.id as string;
  }

  notice(type: 'info' | 'error' | 'warning', text: string): string {
    const m = this.push({ id: this.uuid(), timestamp: this.now(3), type, content: text });
    this.touch();
    return m.id as string;
  }

  /** A model turn: its text, thoughts and tokens; with calls, appended again with toolCalls, then the responses. */
  gemini(text: string, o: { thought?: string; calls?: ToolSpec[] } = {}): string {
    const id = this.uuid();
    const base: Obj = {
      id,
      timestamp: this.now(40),
      type: 'gemini',
      content: text,
      thoughts: o.thought ? [{ subject: 'Planning', description: o.thought, timestamp: iso(this.clock) }] : [],
      tokens: {
        input: 900 + this.n,
        output: 12,
        cached: 0,
        thoughts: o.thought ? 20 : 0,
        tool: 0,
        total: 932 + this.n,
      },
      model: this.opts.model ?? 'gemini-2.5-pro',
    };
    this.push(base);
    this.touch();
    if (!o.calls?.length) return id;
    const calls = o.calls.map((c, i) => {
      const callId = `${c.name}__${c.name}_${this.clock}_${i}`;
      const response: Obj = c.error !== undefined ? { error: c.error } : { output: c.output ?? '' };
      return {
        id: callId,
        name: c.name,
        args: c.args,
        result: [{ functionResponse: { id: callId, name: c.name, response } }],
        status: c.status ?? (c.error !== undefined ? 'error' : 'success'),
        timestamp: this.now(12),
        resultDisplay: c.error ?? '',
        description: typeof c.args.file_path === 'string' ? c.args.file_path : '',
        displayName: c.displayName ?? c.name,
        renderOutputAsMarkdown: true,
        ...(c.agentId !== undefined ? { agentId: c.agentId } : {}),
      } as Obj;
    });
    this.push({ ...base, toolCalls: calls });
    this.push({
      id: this.uuid(),
      timestamp: this.now(2),
      type: 'user',
      content: calls.map((c) => (c.result as Json[])[0] as Obj as Json),
    });
    this.touch();
    return id;
  }

  /** /rewind to a message: the rewind line, then the snapshot of what is left. */
  rewind(to: string): void {
    this.lines.push({ $rewindTo: to });
    const at = this.history.findIndex((h) => h.id === to);
    if (at >= 0) this.history.splice(at);
    this.snapshot();
  }

  /** A history snapshot: the model history (info, error and warning messages are not in it). */
  snapshot(): void {
    const kept = this.history.filter((m) => m.type === 'user' || m.type === 'gemini');
    this.history.splice(0, this.history.length, ...kept);
    this.set({ messages: [...kept], lastUpdated: this.now(1) });
  }

  render(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

/** A legacy `.json` session of CLI 0.2x: one pretty-printed object, user content a string, no trailing newline. */
export function legacyJson(
  opts: { id: string; cwd: string; startMs: number; seed: number },
  build: (add: (m: Obj) => void, at: (step: number) => string) => void,
  extra: Obj = {},
): string {
  let clock = opts.startMs;
  const messages: Obj[] = [];
  build(
    (m) => messages.push(m),
    (step) => {
      clock += step;
      return iso(clock);
    },
  );
  const doc: Obj = {
    sessionId: opts.id,
    projectHash: projectHash(opts.cwd),
    startTime: iso(opts.startMs),
    lastUpdated: iso(clock),
    messages,
    ...extra,
  };
  return JSON.stringify(doc, null, 2);
}
