/**
 * A Copilot CLI session writer for the corpora and tests, shaped line for line like the real files in
 * ../shared/external/copilot-cli (formats/copilot-cli.md §2): compact JSON.stringify lines, keys
 * `type,data,id,timestamp,parentId`, each `parentId` the id of the line before, deterministic UUID v4 ids and a fixed
 * clock; `workspace.yaml`, `checkpoints/index.md`, `rewind-snapshots/index.json` and a `session-store.db` made with
 * SQLite itself (an in-memory database serialized: the same bytes on every run with the same SQLite).
 */
import Database from 'better-sqlite3';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Line = {
  type: string;
  data: { [k: string]: Json };
  id: string;
  timestamp: string;
  parentId: string | null;
};

export const iso = (ms: number): string => new Date(ms).toISOString();

/** A UUID v4 from a seed and a counter (the same on every run). */
export function uuid(seed: number, n: number): string {
  const h = (v: number, w: number) => v.toString(16).padStart(w, '0').slice(-w);
  return `${h(seed, 8)}-${h(n >> 16, 4)}-4${h(n, 3)}-8${h(seed ^ n, 3)}-${h(n * 2654435761, 12)}`;
}

export class CopilotLog {
  readonly lines: Line[] = [];
  private clock: number;
  private n = 0;
  private calls = 0;
  /** The ids of the user messages, in order (rewind snapshots name them). */
  readonly prompts: string[] = [];

  constructor(
    readonly id: string,
    readonly cwd: string,
    readonly startMs: number,
    readonly seed: number,
    readonly version = '1.0.60',
  ) {
    this.clock = startMs;
  }

  wait(ms: number): this {
    this.clock += ms;
    return this;
  }

  add(type: string, data: { [k: string]: Json }): string {
    const id = uuid(this.seed, ++this.n);
    this.clock += 7;
    const parentId = this.lines.at(-1)?.id ?? null;
    this.lines.push({ type, data, id, timestamp: iso(this.clock), parentId });
    return id;
  }

  callId(): string {
    return `toolu_bdrk_01${this.seed.toString(36)}Copilot${(++this.calls).toString().padStart(4, '0')}Xy`;
  }

  start(): this {
    this.add('session.start', {
      sessionId: this.id,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: this.version,
      startTime: iso(this.startMs),
      contextTier: null,
      context: { cwd: this.cwd, gitRoot: this.cwd, branch: 'main', repository: 'dev/app', hostType: 'github' },
      alreadyInUse: false,
      remoteSteerable: false,
    });
    this.add('session.model_change', { newModel: 'claude-sonnet-4.6', reasoningEffort: 'medium' });
    return this;
  }

  resume(): this {
    this.add('session.resume', {
      resumeTime: iso(this.clock + 7),
      eventCount: this.lines.length,
      selectedModel: 'claude-sonnet-4.6',
      context: { cwd: this.cwd },
      alreadyInUse: false,
      remoteSteerable: false,
    });
    this.add('session.model_change', { previousModel: 'claude-sonnet-4.6', newModel: 'claude-sonnet-4.6' });
    return this;
  }

  user(content: string): string {
    this.add('system.message', {
      content:
        'You are the GitHub Copilot CLI.\n' +
        `<version_information>Version number: ${this.version}</version_information>`,
      role: 'system',
    });
    const id = this.add('user.message', {
      content,
      transformedContent: `<current_datetime>${iso(this.clock)}</current_datetime>\n\n${content}`,
      attachments: [],
      interactionId: uuid(this.seed + 1, this.n),
    });
    this.prompts.push(id);
    return id;
  }

  /**
   * One turn of the agent loop: the assistant message asking for `calls` (each [name, arguments, result, ok]),
   * their starts, a postToolUse hook each, their completions; `ask` puts a permission prompt (approved) before the
   * first completion.
   */
  turn(
    turnId: string,
    text: string,
    calls: Array<[string, { [k: string]: Json }, string, boolean?]>,
    opts: { ask?: boolean } = {},
  ): string[] {
    this.add('assistant.turn_start', { turnId });
    const ids = calls.map(() => this.callId());
    this.add('assistant.message', {
      messageId: uuid(this.seed + 2, this.n),
      content: text,
      toolRequests: calls.map(([name, args], i) => ({ toolCallId: ids[i]!, name, arguments: args, type: 'function' })),
      outputTokens: 40,
    });
    for (const [i, [name, args]] of calls.entries())
      this.add('tool.execution_start', { toolCallId: ids[i]!, toolName: name, arguments: args });
    calls.forEach(([name, args, result, ok], i) => {
      if (opts.ask && i === 0) {
        const requestId = uuid(this.seed + 3, this.n);
        this.add('permission.requested', {
          requestId,
          permissionRequest: {
            kind: 'shell',
            toolCallId: ids[i]!,
            fullCommandText: String(args.command ?? ''),
            intention: 'Run it',
          },
        });
        this.add('permission.completed', { requestId, toolCallId: ids[i]!, result: { kind: 'approved' } });
      }
      const hook = uuid(this.seed + 4, this.n);
      this.add('hook.start', { hookInvocationId: hook, hookType: 'postToolUse', input: { toolName: name } });
      this.add('hook.end', { hookInvocationId: hook, hookType: 'postToolUse', success: true });
      this.add(
        'tool.execution_complete',
        ok === false
          ? { toolCallId: ids[i]!, success: false, error: { message: result, code: 'failure' } }
          : { toolCallId: ids[i]!, success: true, result: { content: result }, toolTelemetry: {} },
      );
    });
    this.add('assistant.turn_end', { turnId });
    return ids;
  }

  /** A turn whose only call the user denies at the prompt, then Ctrl+C (real 1.0.60: no completion follows). */
  denied(turnId: string, command: string): string {
    this.add('assistant.turn_start', { turnId });
    const id = this.callId();
    const args = { command, description: 'Run it' };
    this.add('assistant.message', {
      messageId: uuid(this.seed + 2, this.n),
      content: '',
      toolRequests: [{ toolCallId: id, name: 'bash', arguments: args, type: 'function' }],
    });
    this.add('tool.execution_start', { toolCallId: id, toolName: 'bash', arguments: args });
    const requestId = uuid(this.seed + 3, this.n);
    this.add('permission.requested', {
      requestId,
      permissionRequest: { kind: 'shell', toolCallId: id, fullCommandText: command, intention: 'Run it' },
    });
    this.wait(30_000).add('permission.completed', {
      requestId,
      toolCallId: id,
      result: { kind: 'denied-interactively-by-user' },
    });
    this.add('abort', { reason: 'user_initiated' });
    return id;
  }

  reply(turnId: string, text: string): void {
    this.add('assistant.turn_start', { turnId });
    this.add('assistant.message', {
      messageId: uuid(this.seed + 2, this.n),
      content: text,
      toolRequests: [],
      outputTokens: 12,
    });
    this.add('assistant.turn_end', { turnId });
  }

  shutdown(): void {
    this.add('session.shutdown', {
      shutdownType: 'routine',
      totalPremiumRequests: 1,
      totalApiDurationMs: 3406,
      sessionStartTime: this.startMs,
      codeChanges: { linesAdded: 1, linesRemoved: 1, filesModified: [] },
      modelMetrics: {},
    });
  }

  render(lines: readonly Line[] = this.lines): string {
    return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }

  workspace(extra: Record<string, string> = {}): string {
    const w: Record<string, string> = {
      id: this.id,
      cwd: this.cwd,
      git_root: this.cwd,
      repository: 'dev/app',
      host_type: 'github',
      branch: 'main',
      name: 'Fix the parser',
      client_name: 'github/cli',
      user_named: 'false',
      summary_count: '0',
      created_at: iso(this.startMs - 5),
      updated_at: iso(this.clock),
      ...extra,
    };
    return Object.entries(w)
      .map(([k, v]) => `${k}: ${v}\n`)
      .join('');
  }

  rewindIndex(prompts: readonly string[] = this.prompts): string {
    return JSON.stringify({
      version: 1,
      snapshots: prompts.map((eventId, i) => ({
        snapshotId: uuid(this.seed + 5, i),
        eventId,
        userMessage: `prompt ${i}`,
        timestamp: iso(this.startMs + i * 1000),
        fileCount: 1,
        gitBranch: 'main',
        backupHashes: ['7a21a92eef84bc2e-1780886298696'],
        files: {},
      })),
      filePathMap: {},
    });
  }
}

export const CHECKPOINT_INDEX =
  '# Checkpoint History\n\nCheckpoints are listed in chronological order. Checkpoint 1 is the oldest, higher numbers ' +
  'are more recent.\n\n| # | Title | File |\n|---|-------|------|\n';

/** A session of the store: its turns (`prompt <i>` and `reply <i>` unless `texts` gives each turn's two texts). */
export interface StoreSession {
  id: string;
  cwd: string;
  turns: number;
  at: string;
  summary?: string;
  texts?: ReadonlyArray<readonly [string, string | null]>;
}

/** A session-store.db (schema version 2, as CLI 1.0.14 to 1.0.18 write it) with these sessions and turn counts. */
export function storeDb(sessions: readonly StoreSession[], pageSize = 4096): Buffer {
  const db = new Database(':memory:');
  db.pragma(`page_size = ${pageSize}`);
  db.exec(
    'CREATE TABLE schema_version (version INTEGER NOT NULL);' +
      'CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, ' +
      'summary TEXT, created_at TEXT, updated_at TEXT);' +
      'CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, turn_index INTEGER NOT ' +
      'NULL, user_message TEXT, assistant_response TEXT, timestamp TEXT, UNIQUE(session_id, turn_index));' +
      'INSERT INTO schema_version VALUES (2);',
  );
  const s = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const t = db.prepare(
    'INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES (?, ?, ?, ?, ?)',
  );
  for (const x of sessions) {
    s.run(x.id, x.cwd, 'dev/app', 'github', 'main', x.summary ?? 'Fix the parser', x.at, x.at);
    for (let i = 0; i < x.turns; i++) {
      const [user, reply] = x.texts?.[i] ?? [`prompt ${i}`, `reply ${i}`];
      t.run(x.id, i, user, reply, x.at);
    }
  }
  const bytes = db.serialize();
  db.close();
  return bytes;
}
