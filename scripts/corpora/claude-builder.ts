/**
 * A Claude Code transcript writer for the corpora, shaped like the real transcripts in ../shared/external/claude
 * (2.1.x): every line chained by uuid/parentUuid, one line per content block of a response (the lines share
 * message.id and requestId), tool results parented to their tool_use line, hook progress lines, file-history
 * snapshots, compact boundaries bridged by logicalParentUuid. Deterministic uuids and clock.
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Line = Record<string, Json>;

export const iso = (ms: number): string => new Date(ms).toISOString();

export class ClaudeTranscript {
  readonly lines: Line[] = [];
  private clock: number;
  private n = 0;
  /** The uuid the next chained line hangs from. */
  last: string | null = null;
  private msg = 0;
  private response: { id: string; req: string } | undefined;

  constructor(
    readonly opts: {
      sessionId: string;
      cwd: string;
      startMs: number;
      seed: number;
      agentId?: string;
      version?: string;
      slug?: string;
    },
  ) {
    this.clock = opts.startMs;
  }

  /** A deterministic uuid: the seed names the transcript, the counter the line. */
  uuid(): string {
    const s = this.opts.seed.toString(16).padStart(4, '0');
    return `${s}${(++this.n).toString(16).padStart(4, '0')}-0000-4000-8000-${s}${this.n.toString(16).padStart(8, '0')}`;
  }

  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  private envelope(type: string, extra: Line, parent: string | null = this.last): Line {
    const o = this.opts;
    const l: Line = {
      parentUuid: parent,
      isSidechain: o.agentId !== undefined,
      userType: 'external',
      cwd: o.cwd,
      sessionId: o.sessionId,
      version: o.version ?? '2.1.39',
      gitBranch: 'main',
    };
    if (o.agentId !== undefined) l.agentId = o.agentId;
    if (o.slug !== undefined) l.slug = o.slug;
    return { ...l, type, ...extra };
  }

  /** A chained line; returns its uuid. */
  push(type: string, extra: Line, opts: { parent?: string | null; step?: number } = {}): string {
    const uuid = this.uuid();
    const l = this.envelope(type, extra, opts.parent === undefined ? this.last : opts.parent);
    l.uuid = uuid;
    l.timestamp = iso(this.clock);
    this.lines.push(l);
    this.clock += opts.step ?? 40;
    this.last = uuid;
    return uuid;
  }

  /** A line outside the chain (no uuid). */
  raw(l: Line): this {
    this.lines.push(l);
    return this;
  }

  snapshot(messageId: string): this {
    return this.raw({
      type: 'file-history-snapshot',
      messageId,
      snapshot: { messageId, trackedFileBackups: {}, timestamp: iso(this.clock) },
      isSnapshotUpdate: false,
    });
  }

  hook(event: string, command: string, toolUseID: string): string {
    return this.push(
      'progress',
      {
        data: {
          type: 'hook_progress',
          hookEvent: event,
          hookName: `${event}:${event === 'SessionStart' ? 'startup' : 'Bash'}`,
          command,
        },
        parentToolUseID: toolUseID,
        toolUseID,
      },
      { step: 30 },
    );
  }

  prompt(text: string, mode?: string): string {
    const id = this.push(
      'user',
      { message: { role: 'user', content: text }, ...(mode !== undefined ? { permissionMode: mode } : {}) },
      { step: 2300 },
    );
    this.response = undefined;
    return id;
  }

  /** The user message Claude Code writes when the user stops the turn (Esc): a text block, as real files hold it. */
  interrupt(forToolUse = false): string {
    const text = `[Request interrupted by user${forToolUse ? ' for tool use' : ''}]`;
    const id = this.push('user', { message: { role: 'user', content: [{ type: 'text', text }] } }, { step: 900 });
    this.response = undefined;
    return id;
  }

  meta(text: string): string {
    return this.push('user', { message: { role: 'user', content: text }, isMeta: true }, { step: 5 });
  }

  /** Start a model response: the next blocks share its message id and request id. */
  respond(): this {
    this.msg++;
    const s = this.opts.seed.toString(36);
    this.response = {
      id: `msg_01${s}Resp${this.msg.toString().padStart(4, '0')}`,
      req: `req_011${s}Req${this.msg.toString().padStart(4, '0')}`,
    };
    return this;
  }

  private block(content: Json, stop: string | null = null): string {
    if (!this.response) this.respond();
    const r = this.response!;
    return this.push(
      'assistant',
      {
        message: {
          model: 'claude-sonnet-4-5-20250929',
          id: r.id,
          type: 'message',
          role: 'assistant',
          content: [content],
          stop_reason: stop,
          stop_sequence: null,
          usage: { input_tokens: 3, cache_creation_input_tokens: 1200, cache_read_input_tokens: 0, output_tokens: 1 },
        },
        requestId: r.req,
      },
      { step: 700 },
    );
  }

  text(t: string, stop: string | null = null): string {
    return this.block({ type: 'text', text: t }, stop);
  }

  thinking(t: string): string {
    return this.block({ type: 'thinking', thinking: t, signature: 'EqQBCkYIBxgCKkBsig' });
  }

  toolUse(id: string, name: string, input: Json): string {
    return this.block({ type: 'tool_use', id, name, input });
  }

  /** A tool result, parented to the tool_use line (results of parallel calls hang from their own calls). */
  result(
    toolUseId: string,
    parent: string,
    content: string,
    opts: { isError?: boolean; toolUseResult?: Json } = {},
  ): string {
    return this.push(
      'user',
      {
        message: {
          role: 'user',
          content: [
            { tool_use_id: toolUseId, type: 'tool_result', content, ...(opts.isError ? { is_error: true } : {}) },
          ],
        },
        toolUseResult: opts.toolUseResult ?? { stdout: content, stderr: '', interrupted: false, isImage: false },
      },
      { parent, step: 300 },
    );
  }

  turnDuration(ms: number): string {
    return this.push('system', { subtype: 'turn_duration', durationMs: ms, isMeta: false }, { step: 100 });
  }

  /** A compact boundary (a new root bridged to the old leaf) and the summary the model continues from. */
  compact(summary: string): this {
    const leaf = this.last;
    this.push(
      'system',
      {
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        level: 'info',
        isMeta: false,
        logicalParentUuid: leaf,
        compactMetadata: { trigger: 'auto', preTokens: 155000 },
      },
      { parent: null, step: 10 },
    );
    this.push(
      'user',
      {
        message: {
          role: 'user',
          content: `This session is being continued from a previous conversation that ran out of context. ${summary}`,
        },
        isCompactSummary: true,
        isVisibleInTranscriptOnly: true,
      },
      { step: 10 },
    );
    this.response = undefined;
    return this;
  }

  permissionMode(mode: string): this {
    return this.raw({ type: 'permission-mode', permissionMode: mode, sessionId: this.opts.sessionId });
  }

  summary(text: string, leafUuid: string): this {
    return this.raw({ type: 'summary', summary: text, leafUuid });
  }

  render(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}
