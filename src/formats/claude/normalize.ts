/**
 * Claude Code records → the normalized model: one SessionEvent per line, ChatItems for the conversation (each
 * content block of one model response is its own line; those lines share `message.id`), and the live branch of
 * the uuid/parentUuid DAG: the path from the last line back to a root, compact boundaries bridged by
 * `logicalParentUuid`, plus the lines hanging off it that belong to it (tool results, progress, the rest of a
 * response). Whatever else has a uuid is a branch a rewind abandoned.
 */
import type { JsonlRecord } from '../../model/records.js';
import { validTimeMs } from '../../model/safe-values.js';
import type { ChatItem, EventKind, PolicyState, SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { blankEvent, clip, isObj, isoMs, str, toRanges, type Obj } from '../shared/events.js';
import { modePolicy, sandboxDisabledCall } from './policy.js';

const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]/;
/** Results Claude Code writes itself when a call does not run (the user rejected or interrupted it). */
const SYNTHETIC = [
  /^The user doesn't want to proceed with this tool use\. The tool use was rejected/,
  /^The user doesn't want to take this action right now/,
  INTERRUPTED,
];
/** User lines that echo local slash commands and shell escapes rather than prompt the model. */
const LOCAL_TAGS = [
  'command-name',
  'command-message',
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'bash-input',
  'bash-stdout',
  'bash-stderr',
];
const LOCAL = new RegExp(`^\\s*<(${LOCAL_TAGS.join('|')})>`);

const SYSTEM_KINDS: Record<string, EventKind> = {
  compact_boundary: 'compaction_checkpoint',
  microcompact_boundary: 'notice',
  turn_duration: 'turn_completed',
  api_error: 'retry',
  stop_hook_summary: 'hook',
};

export function blockText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((b) => {
      if (!isObj(b)) return '';
      if (typeof b.text === 'string') return b.text;
      if (b.type === 'thinking') return str(b.thinking) ?? '';
      if (b.type === 'tool_use' || b.type === 'server_tool_use') return `[${str(b.name) ?? 'tool'}]`;
      if (b.type === 'tool_result') return blockText(b.content);
      if (b.type === 'image') return '[image]';
      return '';
    })
    .filter(Boolean)
    .join(' ');
}

const blocks = (m: unknown): Obj[] => (isObj(m) && Array.isArray(m.content) ? m.content.filter(isObj) : []);

/** DAG bookkeeping of one transcript: per line with a uuid. */
interface Node {
  seq: number;
  parent: string | undefined;
  /** Belongs to its parent's step (a result, progress, the rest of a response), rather than starting a branch. */
  attached: boolean;
  /** A user prompt (opens a turn). */
  prompt: boolean;
  sidechain: boolean;
}

export interface ClaudeStep {
  event: SessionEvent;
  chats: ChatItem[];
}

export class ClaudeNormalizer {
  private seq = 0;
  private file = '';
  private main = false;
  private lastMsgId: string | undefined;
  private turns = -1;
  private nodes = new Map<string, Node>();
  private order: string[] = [];
  private readonly dead: number[] = [];
  /** Prompt turns on the live branch of the session's transcript. */
  liveTurns = 0;
  readonly identity: SessionIdentity = { subagents: [] };
  /** The session's transcript was read (else its identity comes from its sub-agents' records, see `finish`). */
  private sawMain = false;
  /** What the sub-agents' records say of the session: the cwd they ran in, their earliest time. */
  private fromSubagents: { cwd?: string; id?: string; first?: { ms: number; iso: string } } = {};

  /** Start a file: `main` for the session's transcript (its DAG decides the live branch), else a sub-agent's. */
  begin(file: string, main: boolean): void {
    this.file = file;
    this.main = main;
    if (main) this.sawMain = true;
    this.lastMsgId = undefined;
    this.turns = -1;
    this.nodes = new Map();
    this.order = [];
  }

  /** A damaged line still takes a place in the log (it is not an event). */
  skip(): void {
    this.seq++;
  }

  push(r: JsonlRecord): ClaudeStep {
    const e = blankEvent(this.file, r, 'claude', this.seq++);
    const chats: ChatItem[] = [];
    const v = r.value;
    if (!isObj(v)) {
      e.summary = 'not an object';
      return { event: e, chats };
    }
    const ms = validTimeMs(isoMs(v.timestamp));
    if (ms !== undefined) {
      e.timeMs = ms;
      e.timeSource = 'line';
    }
    const type = str(v.type) ?? '';
    e.tag = type === 'system' && str(v.subtype) ? `system/${str(v.subtype)}` : type;
    e.sessionId = str(v.sessionId);
    if (str(v.agentId) !== undefined && v.isSidechain === true) e.subagentId = str(v.agentId);
    if (this.turns >= 0) e.turn = this.turns;
    const chat = (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>): void => {
      chats.push({ file: this.file, line: r.line, byteOffset: r.byteOffset, ...c });
    };
    if (this.main) {
      const id = this.identity;
      if (id.id === undefined && e.sessionId !== undefined) id.id = e.sessionId;
      if (id.cwd === undefined && str(v.cwd) !== undefined) id.cwd = str(v.cwd)!;
      if (id.createdAt === undefined && str(v.timestamp) !== undefined) id.createdAt = str(v.timestamp)!;
    } else {
      const sub = this.fromSubagents;
      sub.cwd ??= str(v.cwd);
      sub.id ??= e.sessionId;
      if (ms !== undefined && (sub.first === undefined || ms < sub.first.ms))
        sub.first = { ms, iso: str(v.timestamp)! };
    }
    let attached = true;
    switch (type) {
      case 'user':
        attached = this.user(e, v, chat, r.line);
        break;
      case 'assistant':
        attached = this.assistant(e, v, chat);
        break;
      case 'system': {
        const sub = str(v.subtype) ?? '';
        e.kind = SYSTEM_KINDS[sub] ?? 'notice';
        if (e.kind === 'turn_completed') e.stopReason = 'end_turn';
        attached = sub !== 'compact_boundary';
        const content = typeof v.content === 'string' ? v.content : '';
        e.summary = clip(
          sub === 'compact_boundary'
            ? `compact boundary (${str(isObj(v.compactMetadata) ? v.compactMetadata.trigger : undefined) ?? '?'})`
            : sub === 'turn_duration'
              ? `turn took ${typeof v.durationMs === 'number' ? `${(v.durationMs / 1000).toFixed(1)} s` : '?'}`
              : `${sub || 'system'}${content ? `: ${content}` : ''}`,
        );
        break;
      }
      case 'progress': {
        const d = isObj(v.data) ? v.data : {};
        const dt = str(d.type) ?? '';
        e.kind = dt === 'hook_progress' ? 'hook' : dt === 'agent_progress' ? 'subagent_progress' : 'notice';
        if (dt === 'agent_progress' && str(d.agentId) !== undefined) e.subagentId = str(d.agentId);
        const tu = str(v.parentToolUseID) ?? str(v.toolUseID);
        if (tu?.startsWith('toolu_')) e.toolCallId = tu;
        const hook = str(d.hookName) ? ` ${str(d.hookName)}` : '';
        const command = str(d.command) ? `: ${str(d.command)}` : '';
        e.summary = clip(`${dt.replace(/_/g, ' ') || 'progress'}${hook}${command}`);
        break;
      }
      case 'permission-mode': {
        e.kind = 'session_update';
        const p = modePolicy(str(v.permissionMode) ?? '?', '/permissionMode');
        e.policy = p;
        e.summary = `permission mode ${JSON.stringify(str(v.permissionMode) ?? '?')}`;
        break;
      }
      case 'summary':
        e.kind = 'notice';
        e.summary = clip(`summary: ${str(v.summary) ?? ''}`);
        break;
      case 'file-history-snapshot':
      case 'queue-operation':
      case 'attachment':
      case 'pr-link':
        e.kind = 'notice';
        e.summary =
          type === 'queue-operation'
            ? clip(`queue ${str(v.operation) ?? '?'}${str(v.content) ? `: ${str(v.content)}` : ''}`)
            : type.replace(/-/g, ' ');
        break;
      case 'custom-title':
      case 'ai-title':
      case 'agent-name':
      case 'agent-setting':
      case 'last-prompt':
      case 'mode':
      case 'worktree-state':
      case 'bridge-session':
      case 'cost-state':
      case 'file-history-delta':
      case 'turn_end':
        e.kind = 'session_update';
        e.summary = type.replace(/[-_]/g, ' ');
        break;
      default:
        e.summary = type ? `unknown record ${JSON.stringify(type)}` : 'no type';
    }
    const id = str(v.uuid);
    if (id !== undefined) {
      const parent = str(v.parentUuid) ?? (v.subtype === 'compact_boundary' ? str(v.logicalParentUuid) : undefined);
      if (!this.nodes.has(id)) this.order.push(id);
      this.nodes.set(id, {
        seq: e.seq,
        parent,
        attached,
        prompt: e.opensTurn === true,
        sidechain: v.isSidechain === true,
      });
    }
    return { event: e, chats };
  }

  private user(
    e: SessionEvent,
    v: Obj,
    chat: (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>) => void,
    line: number,
  ): boolean {
    const m = isObj(v.message) ? v.message : {};
    const content = m.content;
    const results = blocks(m).filter((b) => b.type === 'tool_result');
    const text =
      typeof content === 'string'
        ? content
        : blocks(m)
            .filter((b) => b.type !== 'tool_result')
            .map((b) => blockText([b]))
            .filter(Boolean)
            .join(' ');
    const mode = str(v.permissionMode);
    if (mode !== undefined) e.policy = modePolicy(mode, '/permissionMode');
    const tur = isObj(v.toolUseResult) ? v.toolUseResult : undefined;
    const agentId = str(tur?.agentId);
    if (this.main && agentId !== undefined && !this.identity.subagents.some((s) => s.id === agentId))
      this.identity.subagents.push({ id: agentId, file: this.file, line });
    for (const b of results) {
      const t = blockText(b.content);
      chat({
        type: 'tool_result',
        toolCallId: str(b.tool_use_id) ?? '',
        text: clip(t, 300),
        isError: b.is_error === true,
        ...(SYNTHETIC.some((re) => re.test(t.trim())) ? { synthetic: true } : {}),
      });
    }
    if (results.length) {
      const first = results[0]!;
      e.kind = 'tool_update';
      e.toolCallId = str(first.tool_use_id);
      e.toolStatus = results.some((b) => b.is_error === true) ? 'failed' : 'completed';
      const more = results.length > 1 ? ` (+${results.length - 1})` : '';
      e.summary = clip(`${e.toolCallId ?? '?'}${more} — ${blockText(first.content)}`);
    }
    if (v.isMeta === true) {
      if (!results.length) {
        e.kind = 'notice';
        e.summary = clip(`meta: ${text}`);
      }
      return true;
    }
    if (v.isCompactSummary === true) {
      e.kind = 'compaction_completed';
      e.summary = clip(`compaction summary: ${text}`);
      return true;
    }
    if (!text) {
      if (!results.length) {
        e.kind = 'notice';
        e.summary = 'empty user message';
      }
      return results.length > 0;
    }
    chat({ type: 'user', text: clip(text, 300) });
    if (results.length) return true;
    e.summary = clip(text);
    if (INTERRUPTED.test(text.trim())) {
      // A user message Claude Code writes when the user stops the turn: the model sees it on the next request. It
      // ends the turn, but it is no turn_completed of Claude's (those are system turn_duration records).
      e.kind = 'notice';
      e.endsTurn = true;
      e.stopReason = 'cancelled';
      return false;
    }
    if (LOCAL.test(text)) {
      e.kind = 'notice';
      return false;
    }
    e.kind = 'user_prompt';
    this.turns++;
    e.turn = this.turns;
    e.opensTurn = true;
    return false;
  }

  private assistant(
    e: SessionEvent,
    v: Obj,
    chat: (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>) => void,
  ): boolean {
    const m = isObj(v.message) ? v.message : {};
    const bs = blocks(m);
    const msgId = str(m.id);
    const same = msgId !== undefined && msgId === this.lastMsgId;
    this.lastMsgId = msgId;
    const uses = bs.filter((b) => b.type === 'tool_use');
    const text = blockText(bs.filter((b) => b.type === 'text'));
    const sandbox = uses.map((b) => sandboxDisabledCall(b)).find((p): p is PolicyState => p !== undefined);
    if (sandbox) e.policy = sandbox;
    if (uses.length) {
      const first = uses[0]!;
      e.kind = 'tool_call';
      e.toolCallId = str(first.id);
      e.toolTitle = str(first.name);
      e.toolStatus = 'pending';
      e.summary = clip(
        `${e.toolTitle ?? '?'} ` +
          `${JSON.stringify(first.input ?? {})}${uses.length > 1 ? ` (+${uses.length - 1} more)` : ''}`,
      );
      chat({
        type: 'assistant',
        toolCalls: uses.map((b) => ({
          id: str(b.id) ?? '',
          name: str(b.name) ?? '',
          args: clip(JSON.stringify(b.input ?? {}), 200),
          input: b.input,
        })),
        text: clip(text, 300),
        ...(same ? { sameResponse: true } : {}),
      });
    } else if (bs.length && bs.every((b) => b.type === 'thinking' || b.type === 'redacted_thinking')) {
      e.kind = 'thought';
      e.summary = clip(blockText(bs) || '(thinking)');
      chat({ type: 'reasoning', text: e.summary, ...(same ? { sameResponse: true } : {}) });
    } else if (bs.some((b) => b.type === 'server_tool_use')) {
      e.kind = 'tool_call';
      e.toolTitle = str(bs.find((b) => b.type === 'server_tool_use')!.name);
      e.summary = clip(`${e.toolTitle ?? 'server tool'} (run by the API)`);
      chat({ type: 'backend_tool_call', text: e.summary, ...(same ? { sameResponse: true } : {}) });
    } else {
      e.kind = 'model_text';
      e.summary = clip(text || blockText(bs));
      chat({ type: 'assistant', text: clip(text, 300), ...(same ? { sameResponse: true } : {}) });
    }
    if (str(m.stop_reason) !== undefined) e.stopReason = str(m.stop_reason);
    return same;
  }

  /** End of a file: in the main transcript, the lines off the live branch. */
  endFile(): void {
    if (!this.main) return;
    let leaf: string | undefined;
    for (let i = this.order.length - 1; i >= 0 && leaf === undefined; i--)
      if (!this.nodes.get(this.order[i]!)!.sidechain) leaf = this.order[i];
    if (leaf === undefined) return;
    const onPath = new Set<string>();
    for (let cur: string | undefined = leaf; cur !== undefined && !onPath.has(cur); cur = this.nodes.get(cur)?.parent) {
      if (!this.nodes.has(cur)) break;
      onPath.add(cur);
    }
    const live = new Set<string>();
    for (const id of this.order) {
      const n = this.nodes.get(id)!;
      if (onPath.has(id) || n.sidechain || (n.attached && n.parent !== undefined && live.has(n.parent))) {
        live.add(id);
        if (n.prompt) this.liveTurns++;
      } else this.dead.push(n.seq);
    }
  }

  /**
   * The session's identity, complete: a session whose own transcript is missing takes its cwd, id and creation
   * time from its sub-agents' records (they run in its cwd and carry its sessionId; it was created no later than
   * the earliest of them).
   */
  finish(): SessionIdentity {
    const id = this.identity;
    const sub = this.fromSubagents;
    if (this.sawMain) return id;
    if (id.id === undefined && sub.id !== undefined) id.id = sub.id;
    if (id.cwd === undefined && sub.cwd !== undefined) id.cwd = sub.cwd;
    if (id.createdAt === undefined && sub.first !== undefined) id.createdAt = sub.first.iso;
    return id;
  }

  /** Seq ranges off the live branch (over every file so far). */
  deadRanges(): Array<readonly [number, number]> {
    return toRanges([...this.dead].sort((a, b) => a - b));
  }
}

/** The full text an event carries, never truncated. */
export function claudeEventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v)) return e.summary;
  if (v.type === 'user' || v.type === 'assistant') {
    const m = isObj(v.message) ? v.message : {};
    if (typeof m.content === 'string') return m.content;
    return blocks(m)
      .map((b) =>
        b.type === 'tool_use'
          ? `${str(b.name) ?? 'tool'} ${JSON.stringify(b.input ?? {})}`
          : b.type === 'tool_result'
            ? blockText(b.content)
            : blockText([b]),
      )
      .filter(Boolean)
      .join('\n');
  }
  if (v.type === 'summary') return str(v.summary) ?? e.summary;
  if (v.type === 'system' && typeof v.content === 'string') return v.content;
  return JSON.stringify(v);
}
