/**
 * A deterministic builder of realistic Grok Build session directories, following formats/grok-build.md:
 * envelope lines in updates.jsonl (ACP + xAI rails, `_meta` event ids), ConversationItem lines in
 * chat_history.jsonl, rewind points per prompt, and the JSON sidecars. No clock, no randomness. Source lines cited
 * are Grok's (mirror zhangtyzzz/grok-build @ 49ecb6ae, 0.2.134), under crates/codegen/xai-grok-shell/src/session/.
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json | undefined };

export interface SessionOptions {
  id: string;
  cwd: string;
  /** Epoch milliseconds of session creation. */
  startMs: number;
  model?: string;
  sandboxProfile?: string;
  summaryExtra?: Record<string, Json>;
  /** First eventId counter value (a resumed process re-seeds above the last one). */
  eventCounter?: number;
  /** A UserPromptSubmit hook is configured: each prompt is followed by its hook_execution line (xAI). */
  promptHook?: boolean;
}

export interface ToolSpec {
  id: string;
  name: string;
  title: string;
  kind: string;
  args: Record<string, Json>;
  output: string;
  /** Final ACP status; 'failed' marks a failed tool. */
  status?: 'completed' | 'failed';
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const line = (v: unknown): string => `${JSON.stringify(v)}\n`;

export class GrokSession {
  readonly id: string;
  readonly cwd: string;
  readonly model: string;
  t: number;
  counter: number;
  promptIndex = 0;
  updates: string[] = [];
  chat: Json[] = [];
  rewindPoints: Json[] = [];
  files = new Map<string, string | Buffer>();
  summary: Record<string, Json>;
  private readonly createdMs: number;
  private lastActiveMs: number;

  constructor(readonly opts: SessionOptions) {
    this.id = opts.id;
    this.cwd = opts.cwd;
    this.model = opts.model ?? 'grok-build';
    this.t = opts.startMs;
    this.createdMs = opts.startMs;
    this.lastActiveMs = opts.startMs;
    this.counter = opts.eventCounter ?? 1;
    this.summary = {};
    const system =
      "You are Grok Build, a coding agent working in the user's repository. Follow the project instructions.";
    this.chat.push({ type: 'system', content: system });
    this.chat.push({
      type: 'user',
      content: [{ type: 'text', text: `<user_info>\nOS: linux\nWorkspace: ${this.cwd}\n</user_info>` }],
    });
    this.files.set('system_prompt.txt', `${system}\n`);
  }

  /** Advance the clock. */
  tick(ms: number): this {
    this.t += ms;
    return this;
  }

  private meta(extra: Record<string, Json> = {}): Record<string, Json> {
    return { eventId: `${this.id}-${this.counter++}`, agentTimestampMs: this.t, ...extra };
  }

  /**
   * An ACP notification, as Grok's persistence actor writes it (formats/grok-build.md §2.3; persistence.rs
   * `maybe_merge_notification` L1287-1340): held as the single pending ACP line and written when the next ACP
   * notification arrives or at a flush (`drain_pending`, L1508-1530); xAI lines in between are written at once
   * (L1660-1666), so they precede it on disk.
   */
  acp(update: Record<string, Json>, metaExtra?: Record<string, Json>, sessionId = this.id): this {
    const emit = this.emitSeq++;
    const text = line({
      timestamp: Math.floor(this.t / 1000),
      method: 'session/update',
      params: { sessionId, update, _meta: this.meta(metaExtra) },
    });
    this.flushPending();
    this.pending = { text, emit, tag: String(update.sessionUpdate), t: this.t };
    return this;
  }

  /**
   * An xAI update: written at once, the pending ACP line left pending (persistence.rs L1660-1666). turn_completed
   * too: it is a plain `PersistenceMsg::Update` (turn_end.rs `emit_turn_completed` → updates.rs L949-974).
   */
  xai(update: Record<string, Json>, withMeta = true, metaExtra?: Record<string, Json>): this {
    const params: Record<string, Json> = { sessionId: this.id, update };
    if (withMeta) params._meta = this.meta(metaExtra);
    this.write(
      line({ timestamp: Math.floor(this.t / 1000), method: '_x.ai/session/update', params }),
      this.emitSeq++,
      String(update.sessionUpdate),
    );
    return this;
  }

  /** The pending ACP line, not yet on disk. */
  private pending: { text: string; emit: number; tag: string; t: number } | undefined;

  /** Write the pending ACP line (the next ACP notification arrived, a flush, or the session's end). */
  flushPending(): this {
    const p = this.pending;
    this.pending = undefined;
    if (p) this.write(p.text, p.emit, p.tag, p.t);
    return this;
  }

  /**
   * The oracle for timeline tests: every line with the order it was emitted in (which file order can differ
   * from), the prompt turn it belongs to, and whether a later rewind removed it from the live branch.
   */
  readonly emitted: Array<{ line: number; emit: number; tag: string; rewound: boolean }> = [];
  private emitSeq = 0;
  /** Times of notable moments, for sessions built around this one (e.g. when a subagent was spawned). */
  readonly marks: Record<string, number> = {};
  /** Line of the opening user chunk of each prompt on the live branch. */
  private promptStart: number[] = [];

  private write(text: string, emit: number, tag: string, t = this.t): void {
    this.updates.push(text);
    this.emitted.push({ line: this.updates.length, emit, tag, rewound: false });
    if (tag === 'user_message_chunk' && this.promptStart.length === this.promptIndex)
      this.promptStart.push(this.updates.length);
    this.lastActiveMs = Math.max(this.lastActiveMs, t);
  }

  /** Apply a rewind to the oracle: every live line from the start of prompt `target` up to now is dead. */
  markRewound(target: number): void {
    this.flushPending();
    const from = this.promptStart[target];
    if (from === undefined) return;
    for (const e of this.emitted) if (e.line >= from) e.rewound = true;
    this.promptStart = this.promptStart.slice(0, target);
  }

  /**
   * Streamed text and an xAI update emitted right after it: the xAI line is written at once, the text line (the
   * pending ACP line) when the next ACP notification arrives, so it follows the xAI line on disk.
   */
  sayBuffered(text: string, meanwhile: Record<string, Json>): this {
    this.tick(700);
    this.acp({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }, { promptId: this.promptId() });
    this.tick(300);
    this.xai(meanwhile);
    const last = this.chat.at(-1) as { type?: string; content?: string } | undefined;
    if (last?.type === 'assistant' && last.content === '') last.content = text;
    else this.chat.push({ type: 'assistant', content: text, model_id: this.model, reasoning_effort: 'high' });
    return this;
  }

  /** A user prompt: the ACP echo in updates.jsonl and the user item in the chat history. */
  prompt(text: string): this {
    this.tick(1500);
    this.acp(
      {
        sessionUpdate: 'user_message_chunk',
        content: { type: 'text', text },
        _meta: { modelId: this.model, promptIndex: this.promptIndex },
      },
      { promptId: this.promptId() },
    );
    this.chat.push({ type: 'user', content: [{ type: 'text', text }], prompt_index: this.promptIndex });
    if (this.opts.promptHook) {
      this.tick(40);
      this.xai({
        sessionUpdate: 'hook_execution',
        event_name: 'UserPromptSubmit',
        prompt_id: this.promptId(),
        runs: [{ name: 'prompt-guard', status: { status: 'success' } }],
      });
    }
    return this;
  }

  /** The end of one model response (U2 writes it as an xAI line, at once). */
  private responseCompleted(): void {
    this.tick(50);
    this.xai({ sessionUpdate: 'response_completed' });
  }

  promptId(index = this.promptIndex): string {
    return `prompt-${this.id.slice(-4)}-${index}`;
  }

  thought(text: string, id: string): this {
    this.tick(800);
    this.acp({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } }, { promptId: this.promptId() });
    this.chat.push({
      type: 'reasoning',
      id,
      summary: [{ type: 'summary_text', text }],
      encrypted_content: `enc:${id}`,
    });
    return this;
  }

  /** Streamed assistant text without tool calls, closing the model response. */
  say(text: string): this {
    this.tick(1200);
    this.acp({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }, { promptId: this.promptId() });
    this.responseCompleted();
    this.chat.push({ type: 'assistant', content: text, model_id: this.model, reasoning_effort: 'high' });
    return this;
  }

  /** Streamed assistant text the user cuts off (cancelTurn): no response_completed, nothing in the chat history. */
  sayCut(text: string): this {
    this.tick(1200);
    this.acp({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } }, { promptId: this.promptId() });
    return this;
  }

  /** Streamed assistant text written as several chunk lines in a row (chunks with _meta are never merged). */
  sayInChunks(parts: string[]): this {
    for (const text of parts) {
      this.tick(400);
      this.acp(
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
        { promptId: this.promptId() },
      );
    }
    this.responseCompleted();
    this.chat.push({ type: 'assistant', content: parts.join(''), model_id: this.model, reasoning_effort: 'high' });
    return this;
  }

  /** One model response that calls tools; each call runs and is answered in order. */
  tools(text: string, calls: ToolSpec[]): this {
    if (text) {
      this.tick(600);
      this.acp(
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
        { promptId: this.promptId() },
      );
    }
    this.chat.push({
      type: 'assistant',
      content: text,
      tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
      model_id: this.model,
      reasoning_effort: 'high',
    });
    // The model streams its calls (each a pending tool_call), the response completes, then the calls run in turn.
    for (const c of calls) this.declareCall(c);
    this.responseCompleted();
    for (const c of calls) {
      this.tick(200);
      this.acp(
        { sessionUpdate: 'tool_call_update', toolCallId: c.id, status: 'in_progress' },
        { promptId: this.promptId() },
      );
      this.tick(900);
      this.acp(
        {
          sessionUpdate: 'tool_call_update',
          toolCallId: c.id,
          status: c.status ?? 'completed',
          content: [{ type: 'content', content: { type: 'text', text: c.output } }],
          rawOutput: { output: c.output },
        },
        { promptId: this.promptId() },
      );
      this.chat.push({ type: 'tool_result', tool_call_id: c.id, content: c.output });
    }
    return this;
  }

  /** A tool call the model streamed: its pending tool_call line. */
  private declareCall(c: ToolSpec): void {
    this.tick(300);
    this.acp(
      {
        sessionUpdate: 'tool_call',
        toolCallId: c.id,
        title: c.title,
        kind: c.kind,
        status: 'pending',
        rawInput: c.args,
      },
      { promptId: this.promptId() },
    );
  }

  /**
   * A model response whose tool calls start but never finish: the process dies while they run. The chat has the
   * assistant item (appended when the response completed); the log has the calls pending / in progress.
   */
  toolsInFlight(text: string, calls: ToolSpec[]): this {
    if (text) {
      this.tick(600);
      this.acp(
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
        { promptId: this.promptId() },
      );
    }
    this.chat.push({
      type: 'assistant',
      content: text,
      tool_calls: calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
      model_id: this.model,
      reasoning_effort: 'high',
    });
    for (const c of calls) this.declareCall(c);
    this.responseCompleted();
    for (const c of calls) {
      this.tick(200);
      this.acp(
        { sessionUpdate: 'tool_call_update', toolCallId: c.id, status: 'in_progress' },
        { promptId: this.promptId() },
      );
    }
    return this;
  }

  /** The process died mid-turn: no turn_completed, no rewind point; the next prompt gets the next index. */
  abandonTurn(): this {
    this.promptIndex++;
    return this;
  }

  /**
   * A new process picks the session up: time passes, the eventId counter is re-seeded above the last one, and the
   * loaded session announces its commands.
   */
  resume(gapMs: number, { reseed = true }: { reseed?: boolean } = {}): this {
    this.tick(gapMs);
    this.counter = reseed ? this.counter + 1000 : 1;
    this.acp({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        { name: 'compact', description: 'Compact the conversation', input: null },
        { name: 'rewind', description: 'Rewind to an earlier prompt', input: null },
      ],
    });
    return this;
  }

  plan(entries: Array<{ content: string; status: 'pending' | 'in_progress' | 'completed' }>): this {
    this.tick(400);
    this.acp(
      {
        sessionUpdate: 'plan',
        entries: entries.map((e) => ({ content: e.content, priority: 'medium', status: e.status })),
      },
      { promptId: this.promptId() },
    );
    const todos: Record<string, Json> = {};
    entries.forEach((e, i) => {
      todos[`todo-${i + 1}`] = { content: e.content, priority: 'medium', status: e.status };
    });
    this.files.set('plan.json', `${JSON.stringify({ todos }, null, 2)}\n`);
    return this;
  }

  /**
   * End of a prompt turn the model ran to its end: turn_completed and the rewind point for this prompt. The turn
   * task flushes before it reports the completion (turn.rs:1004 `flush_to_disk`: the replay buffer, then
   * `FlushAndAck`, which writes the pending ACP line), so the turn's last ACP line precedes its turn_completed.
   */
  endTurn(stopReason: string, snapshots: Record<string, { before: string | null; after: string | null }> = {}): this {
    this.flushPending();
    this.tick(500);
    this.turnCompleted(this.promptId(), stopReason, {
      inputTokens: 12000 + this.promptIndex * 800,
      outputTokens: 900,
      totalTokens: 12900 + this.promptIndex * 800,
      cachedReadTokens: 8000,
      reasoningTokens: 300,
      modelCalls: 3,
      apiDurationMs: 5400,
      numTurns: 1,
    });
    const point = (content: string | null, path: string) => ({ path, content, captured_at: iso(this.t) });
    const before: Record<string, Json> = {};
    const after: Record<string, Json> = {};
    for (const [path, s] of Object.entries(snapshots)) {
      before[path] = point(s.before, path);
      after[path] = point(s.after, path);
    }
    this.rewindPoints.push({
      prompt_index: this.promptIndex,
      created_at: iso(this.t),
      file_snapshots: before,
      after_snapshots: after,
    });
    this.promptIndex++;
    return this;
  }

  /**
   * The user stops the running turn (Esc) while the model streams: the Cancel arm flushes only the replay buffer
   * (run_loop.rs:1032-1043) and cancel_running_task aborts the turn task before its flush (tasks_cancel.rs:651),
   * then writes turn_completed (L887). The turn's last ACP line is still pending: it is written after the
   * turn_completed, when the next prompt's first ACP line arrives or at the session's end (the persistence actor's
   * channel closes: persistence.rs:2053-2054). The cut response never reaches the chat history, and no rewind
   * point is written (end_prompt, turn.rs:1005, never runs).
   */
  cancelTurn(trigger = 'esc'): this {
    this.tick(900);
    this.turnCompleted(this.promptId(), 'cancelled', undefined, {
      cancelTrigger: trigger,
      cancellationCategory: 'MidTurnAbort',
    });
    this.promptIndex++;
    return this;
  }

  /**
   * A built-in slash command, answered by Grok without the model (a host turn): the echo is a user chunk marked
   * hostTurn sent straight to the persistence actor (turn.rs:219-247), the output an agent chunk marked hostTurn
   * (acp_session.rs:1359-1388, which flushes only the replay buffer), and the command returns before the turn
   * task's flush (turn.rs:456, slash_exec.rs), so handle_completion's turn_completed is written while the output is
   * the pending ACP line. Nothing goes to the chat history, and the prompt index does not move.
   */
  hostCommand(command: string, output: string, promptId: string): this {
    this.tick(1500);
    this.acp(
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: command }, _meta: { hostTurn: true } },
      { promptId },
    );
    this.tick(60);
    this.acp(
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: output }, _meta: { hostTurn: true } },
      { promptId },
    );
    this.tick(20);
    this.turnCompleted(promptId, 'end_turn');
    return this;
  }

  /** The turn's terminal (turn_end.rs `emit_turn_completed`), an xAI line written at once. */
  private turnCompleted(
    promptId: string,
    stopReason: string,
    usage?: Record<string, Json>,
    metaExtra?: Record<string, Json>,
  ): void {
    const update: Record<string, Json> = {
      sessionUpdate: 'turn_completed',
      prompt_id: promptId,
      stop_reason: stopReason,
    };
    if (usage) update.usage = usage;
    this.xai(update, true, metaExtra);
  }

  /** An automatic compaction: started, checkpoint file + marker, completed; the chat history is replaced. */
  compact(checkpointId: string, summaryText: string): this {
    this.tick(2000);
    this.xai({
      sessionUpdate: 'auto_compact_started',
      tokens_used: 180000,
      context_window: 200000,
      percentage: 90,
      reason: 'context window 90% full',
    });
    const file = `compaction_checkpoints/${checkpointId}.json`;
    this.files.set(
      file,
      `${JSON.stringify(
        {
          checkpoint_id: checkpointId,
          prompt_index_at_compaction: this.promptIndex,
          compacted_history: this.chat,
          schema_version: 1,
          created_at: iso(this.t),
          original_user_info: null,
          reread_file_paths: ['src/math.rs'],
        },
        null,
        2,
      )}\n`,
    );
    this.tick(4000);
    this.xai({
      sessionUpdate: 'compaction_checkpoint',
      checkpoint_id: checkpointId,
      prompt_index_at_compaction: this.promptIndex,
      checkpoint_file: file,
      schema_version: 1,
      created_at: iso(this.t),
    });
    this.xai({
      sessionUpdate: 'auto_compact_completed',
      tokens_before: 180000,
      tokens_after: 21000,
      elapsed_ms: 4000,
      summary_preview: summaryText.slice(0, 60),
    });
    this.chat = [
      this.chat[0]!,
      this.chat[1]!,
      {
        type: 'user',
        content: [{ type: 'text', text: `<compaction_summary>\n${summaryText}\n</compaction_summary>` }],
        synthetic_reason: 'compaction_meta',
      },
    ];
    return this;
  }

  /** Render every file of the session directory. */
  render(): Map<string, string | Buffer> {
    this.flushPending();
    const out = new Map(this.files);
    out.set('updates.jsonl', this.updates.join(''));
    out.set('chat_history.jsonl', this.chat.map(line).join(''));
    if (this.rewindPoints.length) out.set('rewind_points.jsonl', this.rewindPoints.map(line).join(''));
    const summary: Record<string, Json> = {
      info: { id: this.id, cwd: this.cwd },
      session_summary: '',
      created_at: iso(this.createdMs),
      updated_at: iso(this.t),
      num_messages: this.updates.length,
      num_chat_messages: this.chat.length,
      current_model_id: this.model,
      next_trace_turn: this.promptIndex,
      chat_format_version: 1,
      grok_home: '/home/dev/.grok',
      last_active_at: iso(this.lastActiveMs),
      agent_name: 'grok-build',
      reasoning_effort: 'high',
      ...(this.opts.sandboxProfile ? { sandbox_profile: this.opts.sandboxProfile } : {}),
      ...this.summary,
      ...this.opts.summaryExtra,
    };
    out.set('summary.json', `${JSON.stringify(summary, null, 2)}\n`);
    return out;
  }
}

export { iso };

export interface OracleEvent {
  depth: number;
  line: number;
  tag: string;
  rewound: boolean;
  compacted: boolean;
}

/**
 * The expected timeline, from what the builder knows it did (not from the tool under test): lines in emission
 * order, rewound and compacted flags, and the children's events right after the line that spawned them.
 */
export function oracleTimeline(s: GrokSession, children: Record<string, GrokSession> = {}, depth = 0): OracleEvent[] {
  // Compacted: emitted before the last compaction checkpoint (the model sees only its summary).
  const checkpoint = Math.max(-1, ...s.emitted.filter((e) => e.tag === 'compaction_checkpoint').map((e) => e.emit));
  const out: OracleEvent[] = [];
  for (const e of [...s.emitted].sort((a, b) => a.emit - b.emit)) {
    out.push({ depth, line: e.line, tag: e.tag, rewound: e.rewound, compacted: e.emit < checkpoint });
    if (e.tag === 'subagent_spawned') {
      const spawned = JSON.parse(s.updates[e.line - 1]!) as { params: { update: { subagent_id: string } } };
      const child = children[spawned.params.update.subagent_id];
      if (child) out.push(...oracleTimeline(child, {}, depth + 1));
    }
  }
  return out;
}
