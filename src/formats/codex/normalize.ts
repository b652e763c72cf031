/**
 * Codex rollout lines → the normalized model: one SessionEvent per line (the rollout is the authoritative log),
 * and ChatItems for the response items (the model-facing conversation) so that tool pairing runs on them:
 * function_call / custom_tool_call / local_shell_call / tool_search_call ↔ their outputs by `call_id`.
 *
 * Codex writes each prompt, reply and reasoning twice: as a response item (what the model sees) and as an event
 * (what the user's screen shows). Each is one event of its kind: a prompt is the `user_message` event (one per turn;
 * the user-role response items are the model's input, which also holds the context Codex adds, AGENTS.md and the
 * environment), a reply or reasoning is the response item (the events are display copies). The other copy is a
 * notice.
 */
import type { JsonlRecord } from '../../model/records.js';
import { showJson, validTimeMs } from '../../model/safe-values.js';
import type { ChatItem, EventKind, SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { blankEvent, clip, isObj, isoMs, num, str, toRanges, type Obj } from '../shared/events.js';
import { turnPolicy } from './policy.js';

/**
 * Codex's placeholder output for a call that never returned (context_manager/normalize.rs ensure_call_outputs_present).
 */
export const ABORTED = 'aborted';

const CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call']);
const OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'tool_search_output']);
const TOOL_ENDS = new Set([
  'exec_command_end',
  'patch_apply_end',
  'mcp_tool_call_end',
  'web_search_end',
  'view_image_tool_call',
]);

const EVENT_KINDS: Record<string, EventKind> = {
  user_message: 'user_prompt',
  // Display copies of the response items that carry the reply and the reasoning.
  agent_message: 'notice',
  agent_reasoning: 'notice',
  agent_reasoning_raw_content: 'notice',
  token_count: 'session_update',
  task_started: 'notice',
  task_complete: 'turn_completed',
  turn_aborted: 'turn_completed',
  context_compacted: 'compaction_completed',
  thread_rolled_back: 'rewind_marker',
  error: 'retry',
  stream_error: 'retry',
};

/** Text of message content items / output payloads. */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (isObj(p) ? (str(p.text) ?? (String(p.type ?? '').includes('image') ? '[image]' : '')) : ''))
      .filter(Boolean)
      .join(' ');
  if (isObj(c)) return str(c.content) ?? contentText(c.content) ?? '';
  return '';
}

const callId = (p: Obj): string | undefined =>
  str(p.call_id) ?? (p.type === 'local_shell_call' ? str(p.id) : undefined);

function callTitle(p: Obj): string {
  if (p.type === 'local_shell_call') {
    const a = isObj(p.action) ? p.action : {};
    return `local_shell ${Array.isArray(a.command) ? a.command.join(' ') : ''}`.trim();
  }
  return str(p.name) ?? String(p.type);
}

function callArgs(p: Obj): string {
  if (p.type === 'function_call') return str(p.arguments) ?? '';
  if (p.type === 'custom_tool_call') return str(p.input) ?? '';
  if (p.type === 'local_shell_call') return showJson(p.action ?? {});
  return showJson(p);
}

/** A call's arguments whole: the recorded JSON string or patch text, or a local shell call's action. */
function callInput(p: Obj): unknown {
  if (p.type === 'function_call') return p.arguments;
  if (p.type === 'custom_tool_call') return p.input;
  if (p.type === 'local_shell_call') return p.action;
  return undefined;
}

export interface CodexStep {
  event: SessionEvent;
  chats: ChatItem[];
}

/** Normalizes one rollout, line by line, keeping what later lines decide about earlier ones (turns, rollbacks). */
export class CodexNormalizer {
  private seq = 0;
  private turns = -1;
  /** Where each turn starts in the model's history: its prompt's response item, else its user_message event. */
  private readonly turnStarts: number[] = [];
  /** The seq of the last user-role response item (the model's copy of a prompt comes just before its event). */
  private lastUserItem = -1;
  private readonly dead: number[] = [];
  readonly identity: SessionIdentity = { subagents: [] };
  private metaSeen = false;

  constructor(private readonly file: string) {}

  /** A damaged line still takes a place in the log (it is not an event). */
  skip(): void {
    this.seq++;
  }

  push(r: JsonlRecord): CodexStep {
    const e = blankEvent(this.file, r, 'codex', this.seq++);
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
    const p = isObj(v.payload) ? v.payload : {};
    const ptype = str(p.type) ?? '';
    e.tag = type === 'response_item' || type === 'event_msg' ? `${type}/${ptype}` : type;
    if (this.turns >= 0) e.turn = this.turns;
    const chat = (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>): void => {
      chats.push({ file: this.file, line: r.line, byteOffset: r.byteOffset, ...c });
    };
    switch (type) {
      case 'session_meta':
        e.kind = 'session_update';
        e.sessionId = str(p.id);
        e.summary = clip(
          `session ${str(p.id) ?? '?'}${str(p.forked_from_id) ? ` forked from ${str(p.forked_from_id)}` : ''} ` +
            `(${[str(p.originator), str(p.cli_version)].filter(Boolean).join(' ')}) in ${str(p.cwd) ?? '?'}`,
        );
        if (!this.metaSeen) this.meta(p, r.line);
        else e.summary = clip(`copied session_meta of ${str(p.id) ?? '?'} (fork or sub-agent history)`);
        this.metaSeen = true;
        break;
      case 'turn_context': {
        e.kind = 'session_update';
        const policy = turnPolicy(p);
        if (policy) e.policy = policy;
        e.promptId = str(p.turn_id);
        e.summary = clip(
          `turn context: ${policy?.label ?? 'no policy'}${str(p.model) ? `, model ${str(p.model)}` : ''}`,
        );
        break;
      }
      case 'compacted':
        e.kind = 'compaction_checkpoint';
        e.summary = clip(`history compacted: ${str(p.message) ?? ''}`);
        break;
      case 'response_item':
        this.responseItem(e, p, ptype, chat);
        break;
      case 'event_msg':
        this.eventMsg(e, p, ptype);
        break;
      default:
        e.summary = type ? type.replace(/_/g, ' ') : 'no type';
        if (
          type === 'inter_agent_communication' ||
          type === 'inter_agent_communication_metadata' ||
          type === 'world_state'
        )
          e.kind = 'notice';
    }
    return { event: e, chats };
  }

  private meta(p: Obj, line: number): void {
    const id = this.identity;
    const sid = str(p.id);
    if (sid !== undefined) id.id = sid;
    if (str(p.cwd) !== undefined) id.cwd = str(p.cwd)!;
    if (str(p.timestamp) !== undefined) id.createdAt = str(p.timestamp)!;
    const src = isObj(p.source) ? p.source : undefined;
    const spawn =
      src && isObj(src.subagent) && isObj(src.subagent.thread_spawn) ? src.subagent.thread_spawn : undefined;
    const fork = str(p.forked_from_id);
    const parent = str(p.parent_thread_id) ?? str(spawn?.parent_thread_id);
    if (fork !== undefined) {
      id.kind = 'fork';
      id.parentId = fork;
      id.linkAt = { file: this.file, line, pointer: '/payload/forked_from_id' };
      id.linkEvidence = `session_meta forked_from_id (${this.file}:${line})`;
    } else if (parent !== undefined) {
      id.kind = 'subagent';
      id.selfLinked = true;
      id.parentId = parent;
      id.linkAt = {
        file: this.file,
        line,
        pointer:
          str(p.parent_thread_id) !== undefined
            ? '/payload/parent_thread_id'
            : '/payload/source/subagent/thread_spawn/parent_thread_id',
      };
      id.linkEvidence = `session_meta parent_thread_id (${this.file}:${line})`;
    }
  }

  private responseItem(
    e: SessionEvent,
    p: Obj,
    ptype: string,
    chat: (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>) => void,
  ): void {
    if (ptype === 'message') {
      const role = str(p.role) ?? '';
      const text = contentText(p.content);
      // A user-role item is the model's copy of a prompt (the user_message event is the prompt) or context Codex
      // added (AGENTS.md, the environment): input to the model, not a prompt turn.
      e.kind = role === 'assistant' ? 'model_text' : 'notice';
      if (role === 'user') this.lastUserItem = e.seq;
      e.summary = clip(`${role === 'assistant' ? '' : `${role || '?'}: `}${text}`);
      chat({ type: role === 'assistant' ? 'assistant' : role === 'user' ? 'user' : 'system', text: clip(text, 300) });
      return;
    }
    if (ptype === 'reasoning') {
      e.kind = 'thought';
      e.summary = clip(Array.isArray(p.summary) ? contentText(p.summary) || '(reasoning)' : '(reasoning)');
      chat({ type: 'reasoning', text: e.summary });
      return;
    }
    if (CALLS.has(ptype)) {
      e.kind = 'tool_call';
      const id = callId(p);
      e.toolCallId = id;
      e.toolTitle = callTitle(p);
      e.toolStatus = str(p.status) ?? 'pending';
      e.summary = clip(`${e.toolTitle} ${callArgs(p)}`);
      if (id !== undefined)
        chat({
          type: 'assistant',
          toolCalls: [{ id, name: e.toolTitle, args: clip(callArgs(p), 200), input: callInput(p) }],
        });
      return;
    }
    if (OUTPUTS.has(ptype)) {
      e.kind = 'tool_update';
      e.toolCallId = str(p.call_id);
      const text = contentText(p.output);
      const failed = isObj(p.output) && p.output.success === false;
      e.toolStatus = failed ? 'failed' : 'completed';
      e.summary = clip(
        `${e.toolCallId ?? '?'} — ${text === ABORTED ? 'aborted (placeholder: the call never returned)' : text}`,
      );
      chat({
        type: 'tool_result',
        toolCallId: e.toolCallId ?? '',
        text: clip(text, 300),
        ...(failed ? { isError: true } : {}),
        ...(text.trim() === ABORTED ? { synthetic: true } : {}),
      });
      return;
    }
    if (ptype === 'web_search_call') {
      e.kind = 'tool_call';
      e.toolTitle = 'web_search';
      e.toolStatus = str(p.status);
      e.summary = clip(`web search ${showJson(p.action ?? {})}`);
      chat({ type: 'backend_tool_call', text: e.summary });
      return;
    }
    e.kind =
      ptype === 'compaction' || ptype === 'compaction_summary'
        ? 'compaction_completed'
        : ptype === 'ghost_snapshot'
          ? 'notice'
          : 'unknown';
    e.summary = ptype.replace(/_/g, ' ') || 'response item';
  }

  private eventMsg(e: SessionEvent, p: Obj, ptype: string): void {
    if (TOOL_ENDS.has(ptype)) {
      e.kind = 'tool_update';
      e.toolCallId = str(p.call_id);
      const code = num(p.exit_code);
      if (code !== undefined) e.toolExitCode = code;
      e.toolStatus =
        str(p.status) ??
        (code !== undefined ? (code === 0 ? 'completed' : 'failed') : p.success === false ? 'failed' : 'completed');
      e.summary = clip(
        `${ptype.replace(/_/g, ' ')} ${e.toolCallId ?? ''}${code !== undefined ? ` (exit ${code})` : ''}`,
      );
      return;
    }
    e.kind = EVENT_KINDS[ptype] ?? 'notice';
    switch (ptype) {
      case 'user_message':
        this.turns++;
        // A rollback takes the prompt's response item out of the model's history with the rest of its turn.
        this.turnStarts.push(this.lastUserItem === e.seq - 1 ? e.seq - 1 : e.seq);
        e.turn = this.turns;
        e.opensTurn = true;
        e.summary = clip(str(p.message) ?? '');
        return;
      case 'agent_message':
        e.summary = clip(`shown: ${str(p.message) ?? ''}`);
        return;
      case 'agent_reasoning':
      case 'agent_reasoning_raw_content':
        e.summary = clip(`shown reasoning: ${str(p.text) ?? ''}`);
        return;
      case 'task_complete':
        e.stopReason = 'end_turn';
        e.promptId = str(p.turn_id);
        e.summary = 'turn completed';
        return;
      case 'turn_aborted': {
        e.stopReason = 'cancelled';
        const reason = typeof p.reason === 'string' ? p.reason : JSON.stringify(p.reason ?? '?');
        e.summary = `turn aborted: ${reason}`;
        return;
      }
      case 'thread_rolled_back': {
        const n = num(p.num_turns) ?? 0;
        // The last n user turns leave the model's history (formats/codex-claude.md §1.8); their lines stay in the
        // file.
        const cut = this.turnStarts.splice(Math.max(0, this.turnStarts.length - n), n);
        if (cut.length) for (let s = cut[0]!; s < e.seq; s++) this.dead.push(s);
        e.targetPromptIndex = this.turnStarts.length;
        e.summary = `rolled back ${n} turn(s)`;
        return;
      }
      case 'error':
      case 'stream_error':
      case 'warning':
        e.summary = clip(`${ptype}: ${str(p.message) ?? ''}`);
        return;
      default:
        e.summary = ptype ? ptype.replace(/_/g, ' ') : 'event';
    }
  }

  /** Seq ranges rolled back off the model's history, and the turns left on it. */
  end(): { dead: Array<readonly [number, number]>; liveTurns: number } {
    return { dead: toRanges([...new Set(this.dead)].sort((a, b) => a - b)), liveTurns: this.turnStarts.length };
  }
}

/** The full text an event carries, never truncated. */
export function codexEventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  const p = isObj(v) && isObj(v.payload) ? v.payload : undefined;
  if (!p) return e.summary;
  switch (e.tag) {
    case 'response_item/message':
      return contentText(p.content);
    case 'response_item/reasoning':
      return contentText(p.summary) || e.summary;
    case 'response_item/function_call':
    case 'response_item/custom_tool_call':
    case 'response_item/local_shell_call':
      return `${callTitle(p)}\ninput: ${callArgs(p)}`;
    case 'response_item/function_call_output':
    case 'response_item/custom_tool_call_output':
      return contentText(p.output);
    case 'event_msg/user_message':
    case 'event_msg/agent_message':
      return str(p.message) ?? e.summary;
    case 'event_msg/agent_reasoning':
      return str(p.text) ?? e.summary;
    default:
      return showJson(p);
  }
}
