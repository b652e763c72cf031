/**
 * A Pi session file writer for the corpora, shaped like the real files in ../shared/external/pi (v1, recorded by
 * Pi's author) and Pi's v3 writer (session-manager.ts): header on line 1, then one entry per line; v2+ entries carry
 * an 8-hex `id` and the `parentId` of the entry before (or of an older one after `/tree`); assistant messages with
 * thinking, text and toolCall blocks, usage and stopReason; toolResults by toolCallId. Deterministic ids and clock.
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Line = Record<string, Json>;

export const iso = (ms: number): string => new Date(ms).toISOString();

/** Pi's file name: the creation time with `:` and `.` as `-`, `_`, the session id. */
export const piFileName = (startMs: number, id: string): string => `${iso(startMs).replace(/[:.]/g, '-')}_${id}.jsonl`;

/** Pi's per-cwd directory name under sessions/. */
export const piCwdDir = (cwd: string): string => `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;

const USAGE = (input: number, output: number): Json => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

export class PiSession {
  readonly lines: Line[] = [];
  private clock: number;
  private n = 0;
  /** The id the next entry hangs from (null: a new root). */
  last: string | null = null;

  constructor(
    readonly opts: {
      id: string;
      cwd: string;
      startMs: number;
      seed: number;
      /** Absent: a v1 file (no version field, no ids). */
      version?: number;
      parentSession?: string;
      /** v1 headers carry the model. */
      model?: string;
    },
  ) {
    this.clock = opts.startMs;
  }

  get tree(): boolean {
    return (this.opts.version ?? 1) >= 2;
  }

  nextId(): string {
    return `${this.opts.seed.toString(16).padStart(2, '0')}${(++this.n).toString(16).padStart(6, '0')}`;
  }

  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  header(at = this.clock): this {
    const o = this.opts;
    const h: Line = { type: 'session' };
    if (o.version !== undefined) h.version = o.version;
    Object.assign(h, { id: o.id, timestamp: iso(at), cwd: o.cwd });
    if (o.version === undefined) Object.assign(h, { provider: 'anthropic', modelId: o.model ?? 'claude-sonnet-4-5' });
    if (o.parentSession !== undefined) h[o.version === undefined ? 'branchedFrom' : 'parentSession'] = o.parentSession;
    this.lines.push(h);
    return this;
  }

  /** One entry; returns its id ('' for v1). */
  entry(type: string, extra: Line, opts: { parent?: string | null; step?: number } = {}): string {
    this.clock += opts.step ?? 1_000;
    const l: Line = { type };
    let id = '';
    if (this.tree) {
      id = this.nextId();
      l.id = id;
      l.parentId = opts.parent === undefined ? this.last : opts.parent;
      this.last = id;
    }
    l.timestamp = iso(this.clock);
    this.lines.push({ ...l, ...extra });
    return id;
  }

  modelChange(modelId = 'claude-sonnet-4-5'): string {
    return this.entry('model_change', { provider: 'anthropic', modelId });
  }

  thinkingLevel(level = 'off'): string {
    return this.entry('thinking_level_change', { thinkingLevel: level });
  }

  user(text: string, step = 20_000): string {
    return this.entry(
      'message',
      { message: { role: 'user', content: [{ type: 'text', text }], timestamp: this.clock + step } },
      { step },
    );
  }

  /** An assistant message: `calls` are [id, name, arguments]. */
  assistant(
    text: string,
    opts: { calls?: Array<[string, string, Json]>; thinking?: string; stop?: string; error?: string } = {},
  ): string {
    const content: Json[] = [];
    if (opts.thinking) content.push({ type: 'thinking', thinking: opts.thinking, thinkingSignature: 'sig' });
    if (text) content.push({ type: 'text', text });
    for (const [id, name, args] of opts.calls ?? []) content.push({ type: 'toolCall', id, name, arguments: args });
    const message: Line = {
      role: 'assistant',
      content,
      api: 'anthropic-messages',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      usage: USAGE(1200, 80),
      stopReason: opts.stop ?? (opts.calls?.length ? 'toolUse' : 'stop'),
      timestamp: this.clock + 3_000,
    };
    if (opts.error !== undefined) message.errorMessage = opts.error;
    return this.entry('message', { message }, { step: 3_000 });
  }

  result(callId: string, name: string, text: string, isError = false): string {
    return this.entry(
      'message',
      {
        message: {
          role: 'toolResult',
          toolCallId: callId,
          toolName: name,
          content: [{ type: 'text', text }],
          isError,
          timestamp: this.clock + 2_000,
        },
      },
      { step: 2_000 },
    );
  }

  bash(command: string, output: string, exitCode = 0): string {
    return this.entry('message', {
      message: {
        role: 'bashExecution',
        command,
        output,
        exitCode,
        cancelled: false,
        truncated: false,
        timestamp: this.clock + 1_000,
      },
    });
  }

  render(): string {
    return `${this.lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
  }
}
