/**
 * A Codex CLI rollout writer for the corpora, shaped line for line like the real rollouts in ../shared/external/codex
 * (Codex Desktop 0.104): session_meta, the developer/user context messages, then per turn task_started, the user
 * message (as a response item and as an event), turn_context, token_count, reasoning, commentary, calls and their
 * outputs, task_complete. Deterministic: a fixed clock that advances by fixed steps.
 */

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface Policy {
  approval: 'untrusted' | 'on-failure' | 'on-request' | 'never';
  sandbox: Json;
}

export const WORKSPACE = (cwd: string): Policy => ({
  approval: 'on-request',
  sandbox: {
    type: 'workspace-write',
    writable_roots: [cwd],
    network_access: false,
    exclude_tmpdir_env_var: false,
    exclude_slash_tmp: false,
  },
});

export interface CallSpec {
  id: string;
  /** function_call (default), custom_tool_call (apply_patch), local_shell_call. */
  kind?: 'function' | 'custom' | 'local_shell';
  name: string;
  args: Json;
  output: string;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export class CodexRollout {
  readonly lines: Array<Record<string, Json>> = [];
  private clock: number;
  private ordinal = 0;
  private turn = 0;

  constructor(
    readonly opts: {
      id: string;
      cwd: string;
      startMs: number;
      forkedFrom?: string;
      parentThread?: string;
      paginated?: boolean;
      model?: string;
    },
  ) {
    this.clock = opts.startMs;
  }

  get model(): string {
    return this.opts.model ?? 'gpt-5.3-codex';
  }

  /** Advance the clock. */
  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  line(type: string, payload: Record<string, Json>, step = 7): this {
    const l: Record<string, Json> = { timestamp: iso(this.clock), type, payload };
    if (this.opts.paginated) l.ordinal = this.ordinal++;
    this.lines.push(l);
    this.clock += step;
    return this;
  }

  /** session_meta and the context messages Codex writes before the first turn. */
  start(): this {
    const o = this.opts;
    const meta: Record<string, Json> = {
      id: o.id,
      ...(o.forkedFrom ? { forked_from_id: o.forkedFrom } : {}),
      timestamp: iso(o.startMs - 4000),
      cwd: o.cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.104.0',
      source: o.parentThread
        ? { subagent: { thread_spawn: { parent_thread_id: o.parentThread, depth: 1, agent_nickname: 'reviewer' } } }
        : 'cli',
      model_provider: 'openai',
      base_instructions: { text: 'You are Codex, a coding agent. Follow the repository conventions.' },
      ...(o.paginated ? { history_mode: 'paginated' } : {}),
      git: {
        commit_hash: '9b1d3c5e7f9a1b3d5f7a9c1e3b5d7f9a1c3e5b7d',
        branch: 'main',
        repository_url: 'git@example.com:dev/app.git',
      },
    };
    this.line('session_meta', meta, 0);
    this.line(
      'response_item',
      {
        type: 'message',
        role: 'developer',
        content: [
          {
            type: 'input_text',
            text: '<permissions instructions>Filesystem sandboxing: workspace-write.</permissions instructions>',
          },
        ],
      },
      0,
    );
    this.line(
      'response_item',
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: `# AGENTS.md instructions for ${o.cwd}\n\nRun the tests before you finish.` },
        ],
      },
      1,
    );
    this.line(
      'response_item',
      {
        type: 'message',
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `<environment_context>\n  <cwd>${o.cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
          },
        ],
      },
      0,
    );
    return this;
  }

  /** A user turn: task_started, the prompt (response item + event), turn_context, the first token count. */
  prompt(text: string, policy: Policy = WORKSPACE(this.opts.cwd)): this {
    const turnId = `019cb000-0000-7000-8000-${(++this.turn).toString(16).padStart(12, '0')}`;
    this.line(
      'event_msg',
      { type: 'task_started', turn_id: turnId, model_context_window: 258400, collaboration_mode_kind: 'default' },
      1,
    );
    this.line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }, 0);
    this.line(
      'event_msg',
      { type: 'user_message', message: text, images: [], local_images: [], text_elements: [] },
      23,
    );
    this.context(policy, turnId);
    this.tokens();
    return this;
  }

  /** turn_context: written per turn and again inside a turn (after each tool round, as real files show). */
  context(
    policy: Policy = WORKSPACE(this.opts.cwd),
    turnId = `019cb000-0000-7000-8000-${this.turn.toString(16).padStart(12, '0')}`,
  ): this {
    return this.line(
      'turn_context',
      {
        turn_id: turnId,
        cwd: this.opts.cwd,
        approval_policy: policy.approval,
        sandbox_policy: policy.sandbox,
        model: this.model,
        personality: 'pragmatic',
        effort: 'high',
        summary: 'auto',
        user_instructions: 'Run the tests before you finish.',
        truncation_policy: { mode: 'tokens', limit: 10000 },
      },
      835,
    );
  }

  tokens(total = 34900): this {
    return this.line(
      'event_msg',
      {
        type: 'token_count',
        info: {
          total_token_usage: {
            input_tokens: total - 431,
            cached_input_tokens: 3456,
            output_tokens: 431,
            reasoning_output_tokens: 264,
            total_tokens: total,
          },
          model_context_window: 258400,
        },
        rate_limits: { limit_id: 'codex', primary: { used_percent: 19.0, window_minutes: 300 } },
      },
      900,
    );
  }

  think(text: string): this {
    this.line('event_msg', { type: 'agent_reasoning', text }, 0);
    return this.line(
      'response_item',
      {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text }],
        content: null,
        encrypted_content: 'gAAAAABp-encrypted-reasoning',
      },
      1200,
    );
  }

  say(text: string, phase: 'commentary' | 'final' = 'commentary'): this {
    this.line('event_msg', { type: 'agent_message', message: text }, 0);
    return this.line(
      'response_item',
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }], phase },
      400,
    );
  }

  /** The call lines of one model response (several: parallel calls), then their outputs in order. */
  calls(specs: CallSpec[], opts: { outputs?: boolean; exec?: boolean } = {}): this {
    for (const c of specs) this.callLine(c);
    this.tokens();
    if (opts.outputs !== false) for (const c of specs) this.output(c.id, c.output, c.kind, opts.exec);
    return this;
  }

  callLine(c: CallSpec): this {
    if (c.kind === 'custom')
      return this.line(
        'response_item',
        {
          type: 'custom_tool_call',
          status: 'completed',
          call_id: c.id,
          name: c.name,
          input: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
        },
        30,
      );
    if (c.kind === 'local_shell')
      return this.line(
        'response_item',
        {
          type: 'local_shell_call',
          call_id: c.id,
          status: 'completed',
          action: { type: 'exec', command: c.args as Json[] },
        },
        30,
      );
    return this.line(
      'response_item',
      { type: 'function_call', name: c.name, arguments: JSON.stringify(c.args), call_id: c.id },
      30,
    );
  }

  output(id: string, output: string, kind?: CallSpec['kind'], exec = false): this {
    if (exec)
      this.line(
        'event_msg',
        {
          type: 'exec_command_end',
          call_id: id,
          turn_id: `019cb000-0000-7000-8000-${this.turn.toString(16).padStart(12, '0')}`,
          command: ['bash', '-lc', 'cargo test'],
          exit_code: 0,
          duration: { secs: 1, nanos: 0 },
          aggregated_output: output,
        },
        0,
      );
    return this.line(
      'response_item',
      { type: kind === 'custom' ? 'custom_tool_call_output' : 'function_call_output', call_id: id, output },
      600,
    );
  }

  complete(last: string): this {
    this.say(last, 'final');
    this.tokens(36100);
    return this.line(
      'event_msg',
      {
        type: 'task_complete',
        turn_id: `019cb000-0000-7000-8000-${this.turn.toString(16).padStart(12, '0')}`,
        last_agent_message: last,
      },
      2,
    );
  }

  aborted(reason = 'interrupted'): this {
    return this.line('event_msg', { type: 'turn_aborted', reason }, 2);
  }

  compacted(message: string): this {
    this.line(
      'compacted',
      {
        message,
        replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: message }] }],
      },
      0,
    );
    return this.line('event_msg', { type: 'context_compacted' }, 300);
  }

  rolledBack(turns: number): this {
    return this.line('event_msg', { type: 'thread_rolled_back', num_turns: turns }, 50);
  }

  /** Lines copied from a parent at the head of a fork: the parent's own lines, re-stamped at the child's clock. */
  copy(lines: ReadonlyArray<Record<string, Json>>): this {
    for (const l of lines) this.line(String(l.type), l.payload as Record<string, Json>, 1);
    return this;
  }

  render(): string {
    return this.lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
}

/** The rollout's file name, as Codex names it (time with dashes, then the id). */
export function rolloutName(startMs: number, id: string): string {
  const t = iso(startMs - 4000)
    .slice(0, 19)
    .replace(/:/g, '-');
  return `rollout-${t}-${id}.jsonl`;
}

export function dayDir(startMs: number): string {
  const d = new Date(startMs - 4000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}`;
}

/**
 * A zstd frame holding `data` in raw (stored) blocks: a genuine .zst that `zstd -d` decodes, written without a
 * compressor (RFC 8878: single-segment frame, 4-byte content size, raw blocks of at most 128 KiB).
 */
export function zstdStored(data: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(0xfd2fb528, 0);
  header[4] = 0xa0; // Frame_Content_Size_flag 2 (4 bytes), Single_Segment_flag 1, no checksum, no dictionary
  header.writeUInt32LE(data.length, 5);
  const parts: Buffer[] = [header];
  const MAX = 128 * 1024;
  let off = 0;
  do {
    const n = Math.min(MAX, data.length - off);
    const last = off + n >= data.length ? 1 : 0;
    const bh = Buffer.alloc(3);
    const v = last | (0 << 1) | (n << 3);
    bh[0] = v & 0xff;
    bh[1] = (v >> 8) & 0xff;
    bh[2] = (v >> 16) & 0xff;
    parts.push(bh, data.subarray(off, off + n));
    off += n;
  } while (off < data.length);
  return Buffer.concat(parts);
}
