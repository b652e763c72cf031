/**
 * Copilot CLI events → the normalized model (formats/copilot-cli.md §2, §5): one SessionEvent per line, ChatItems
 * for what the model sees (user messages, assistant messages with their toolRequests, tool.execution_complete as
 * results), and the session's identity from `session.start` and `workspace.yaml`. A call the user denied at the
 * permission prompt (`permission.completed` "denied-interactively-by-user", then `abort`) never gets a completion:
 * the denial is its result, a synthetic one (§5.4, real 1.0.60 files).
 */
import type { JsonlRecord } from '../../model/records.js';
import { validTimeMs } from '../../model/safe-values.js';
import { keep, type ChatItem, type EventKind, type SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { blankEvent, clip, isObj, isoMs, num, str, type Obj } from '../shared/events.js';

type Chat = Omit<ChatItem, 'file' | 'line' | 'byteOffset'>;

const KINDS: Record<string, EventKind> = {
  'session.start': 'session_update',
  'session.resume': 'session_update',
  'session.shutdown': 'session_update',
  'session.mode_changed': 'session_update',
  'session.permissions_changed': 'session_update',
  'session.context_changed': 'session_update',
  'session.model_change': 'model_change',
  'session.plan_changed': 'plan',
  'session.task_complete': 'task',
  'session.compaction_start': 'compaction_started',
  'user.message': 'user_prompt',
  'assistant.message': 'model_text',
  'assistant.reasoning': 'thought',
  'assistant.turn_end': 'turn_completed',
  // A start is an update of the call the assistant message made (transcript shows the call once, with the message).
  'tool.execution_start': 'tool_update',
  'tool.user_requested': 'tool_call',
  'tool.execution_complete': 'tool_update',
  'hook.start': 'hook',
  'hook.end': 'hook',
  'subagent.started': 'subagent_spawned',
  'subagent.completed': 'subagent_finished',
  'subagent.failed': 'subagent_finished',
};

/** The result kinds of `permission.completed` that deny the call (the CLI's schema). */
const DENIED = /^denied-/;

/** The text of a tool result (`result.content`, or the error's message). */
export function resultText(d: Obj): string {
  if (isObj(d.result)) return str(d.result.content) ?? str(d.result.detailedContent) ?? '';
  if (isObj(d.error)) return str(d.error.message) ?? '';
  return '';
}

export class CopilotNormalizer {
  private seq = 0;
  private file = '';
  private turns = -1;
  /** Calls the model asked for or the log started, and whether each has its result. */
  private readonly calls = new Map<string, { answered: boolean; name: string; denied?: boolean }>();
  liveTurns = 0;
  readonly identity: SessionIdentity = { subagents: [] };

  begin(file: string): void {
    this.file = file;
  }

  skip(): void {
    this.seq++;
  }

  push(r: JsonlRecord): { event: SessionEvent; chats: ChatItem[] } {
    const e = blankEvent(this.file, r, 'copilot', this.seq++);
    const chats: ChatItem[] = [];
    const v = r.value;
    if (!isObj(v)) {
      e.summary = 'not an object';
      return { event: e, chats };
    }
    const ms = validTimeMs(isoMs(v.timestamp));
    if (ms !== undefined) {
      e.timeMs = ms;
      e.timeSource = 'envelope';
    }
    const type = str(v.type) ?? '';
    const d = isObj(v.data) ? v.data : {};
    e.tag = type;
    e.eventId = str(v.id);
    e.kind = KINDS[type] ?? (type ? 'notice' : 'unknown');
    if (this.turns >= 0) e.turn = this.turns;
    const chat = (c: Chat): void => {
      chats.push({ file: this.file, line: r.line, byteOffset: r.byteOffset, ...c });
    };
    this.describe(e, type, d, r, chat);
    return { event: e, chats };
  }

  private describe(e: SessionEvent, type: string, d: Obj, r: JsonlRecord, chat: (c: Chat) => void): void {
    const id = this.identity;
    switch (type) {
      case 'session.start': {
        e.sessionId = str(d.sessionId);
        const ctx = isObj(d.context) ? d.context : {};
        e.summary = clip(`session start (CLI ${str(d.copilotVersion) ?? '?'})${str(ctx.cwd) ? ` in ${ctx.cwd}` : ''}`);
        if (r.recovered !== undefined || id.id !== undefined) return;
        if (e.sessionId !== undefined) id.id = e.sessionId;
        if (str(ctx.cwd) !== undefined) id.cwd = str(ctx.cwd)!;
        if (str(d.startTime) !== undefined) id.createdAt = str(d.startTime)!;
        if (str(d.selectedModel) !== undefined) id.model = str(d.selectedModel)!;
        const parent = str(d.detachedFromSpawningParentSessionId);
        if (parent !== undefined) {
          id.kind = 'detached';
          id.parentId = parent;
          id.linkAt = {
            file: this.file,
            line: r.line,
            byteOffset: r.byteOffset,
            pointer: '/data/detachedFromSpawningParentSessionId',
          };
          id.linkEvidence = `session.start names the session it was detached from, ${parent}`;
        }
        return;
      }
      case 'session.resume': {
        const ctx = isObj(d.context) ? d.context : {};
        if (str(ctx.cwd) !== undefined) id.cwd = str(ctx.cwd)!;
        if (str(d.selectedModel) !== undefined) id.model = str(d.selectedModel)!;
        e.summary = `session resumed (eventCount ${num(d.eventCount) ?? '?'})`;
        return;
      }
      case 'session.shutdown':
        e.summary = `session shutdown (${str(d.shutdownType) ?? '?'})`;
        return;
      case 'session.model_change':
        if (str(d.newModel) !== undefined) id.model = str(d.newModel)!;
        e.summary = `model ${str(d.previousModel) ? `${d.previousModel} → ` : ''}${str(d.newModel) ?? '?'}`;
        return;
      case 'user.message': {
        const text = str(d.content) || str(d.transformedContent) || '';
        this.turns++;
        e.turn = this.turns;
        e.opensTurn = true;
        e.promptIndex = this.turns;
        e.step = { k: 'user', pi: this.turns };
        if (r.recovered === undefined) this.liveTurns++;
        e.summary = clip(text);
        chat({ type: 'user', text: clip(text, 300), promptIndex: this.turns });
        return;
      }
      case 'assistant.message': {
        const reqs = Array.isArray(d.toolRequests) ? d.toolRequests.filter(isObj) : [];
        const text = str(d.content) ?? '';
        if (str(d.model) !== undefined) id.model = str(d.model)!;
        const calls = reqs.map((q) => {
          const callId = str(q.toolCallId) ?? '';
          const name = str(q.name) ?? '';
          if (!this.calls.has(callId)) this.calls.set(keep(callId), { answered: false, name: keep(name) });
          return { id: callId, name, args: clip(JSON.stringify(q.arguments ?? {}), 200), input: q.arguments };
        });
        e.summary = clip(
          text.trim() ||
            (calls.length ? `asks for ${calls.map((c) => c.name).join(', ')}` : '(empty assistant message)'),
        );
        if (calls.length) {
          e.kind = 'tool_call';
          e.toolCallId = calls[0]!.id;
          e.toolTitle = calls[0]!.name;
          e.toolStatus = 'pending';
        }
        chat({ type: 'assistant', text: clip(text, 300), ...(calls.length ? { toolCalls: calls } : {}) });
        return;
      }
      case 'assistant.reasoning':
        e.summary = clip(str(d.content) ?? '(reasoning)');
        chat({ type: 'reasoning', text: e.summary });
        return;
      case 'assistant.turn_start':
      case 'assistant.turn_end':
        if (type === 'assistant.turn_end') e.stopReason = 'turn_end';
        e.summary = `${type === 'assistant.turn_start' ? 'turn start' : 'turn end'} ${str(d.turnId) ?? '?'}`;
        return;
      case 'tool.user_requested':
      case 'tool.execution_start': {
        const callId = str(d.toolCallId);
        const name = str(d.toolName) ?? '?';
        e.toolCallId = callId;
        e.toolTitle = name;
        e.toolStatus = type === 'tool.user_requested' ? 'pending' : 'in_progress';
        e.summary = clip(`${name} ${JSON.stringify(d.arguments ?? {})}`);
        // A call no assistant message asked for (a user's `!` command): declared here.
        if (callId !== undefined && !this.calls.has(callId)) {
          this.calls.set(keep(callId), { answered: false, name: keep(name) });
          chat({
            type: 'assistant',
            toolCalls: [{ id: callId, name, args: clip(JSON.stringify(d.arguments ?? {}), 200), input: d.arguments }],
          });
        }
        return;
      }
      case 'tool.execution_complete': {
        const callId = str(d.toolCallId) ?? '';
        const ok = d.success === true;
        const text = resultText(d);
        e.toolCallId = callId;
        e.toolStatus = ok ? 'completed' : 'failed';
        const known = this.calls.get(callId);
        if (known) e.toolTitle = known.name;
        e.summary = clip(`${callId} ${ok ? 'completed' : 'failed'} — ${text}`);
        // A completion after a denial the normalizer already answered is the log's, not a second result.
        if (known?.denied === true) return;
        if (known) known.answered = true;
        chat({ type: 'tool_result', toolCallId: callId, text: clip(text, 300), isError: !ok });
        return;
      }
      case 'permission.requested': {
        const p = isObj(d.permissionRequest) ? d.permissionRequest : {};
        e.toolCallId = str(p.toolCallId);
        e.summary = clip(
          `permission asked (${str(p.kind) ?? '?'}): ` +
            `${str(p.fullCommandText) ?? str(p.fileName) ?? str(p.path) ?? str(p.intention) ?? ''}`,
        );
        return;
      }
      case 'permission.completed': {
        const res = isObj(d.result) ? d.result : {};
        const kind = str(res.kind) ?? '?';
        const callId = str(d.toolCallId);
        e.toolCallId = callId;
        e.summary = `permission ${kind}`;
        if (kind === 'denied-interactively-by-user' && callId !== undefined) e.kind = 'tool_update';
        const known = callId !== undefined ? this.calls.get(callId) : undefined;
        if (known && !known.answered && kind === 'denied-interactively-by-user') {
          known.answered = true;
          known.denied = true;
          chat({
            type: 'tool_result',
            toolCallId: callId!,
            text: 'denied interactively by the user',
            isError: true,
            synthetic: true,
          });
        } else if (DENIED.test(kind)) e.summary = `permission ${kind} (the call is refused)`;
        return;
      }
      case 'abort':
        e.stopReason = 'cancelled';
        e.summary = `abort (${str(d.reason) ?? '?'})`;
        return;
      case 'session.compaction_complete':
        e.kind = d.success === true ? 'compaction_completed' : 'compaction_failed';
        e.checkpointId = num(d.checkpointNumber)?.toString();
        e.summary =
          d.success === true
            ? `compaction complete (checkpoint ${num(d.checkpointNumber) ?? '?'})`
            : 'compaction failed';
        return;
      case 'subagent.started':
      case 'subagent.completed':
      case 'subagent.failed':
        e.subagentId = str(d.toolCallId);
        e.summary = `${type.slice(9)} sub-agent ${str(d.agentName) ?? '?'}`;
        return;
      case 'session.info':
      case 'session.warning':
      case 'session.error':
        e.summary = clip(
          `${type.slice(8)} (${str(d.infoType) ?? str(d.warningType) ?? str(d.errorType) ?? '?'}): ` +
            `${str(d.message) ?? ''}`,
        );
        return;
      case 'hook.start':
      case 'hook.end':
        e.summary = `${type} ${str(d.hookType) ?? '?'}`;
        return;
      case 'system.message':
        e.summary = `system prompt (${(str(d.content) ?? '').length} characters)`;
        return;
      default: {
        const text = str(d.content) ?? str(d.summary) ?? str(d.message);
        e.summary = clip(type ? `${type}${text !== undefined ? `: ${text}` : ''}` : 'no type');
      }
    }
  }
}

/** The full text an event carries, never truncated. */
export function copilotEventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v) || !isObj(v.data)) return e.summary;
  const d = v.data;
  switch (v.type) {
    case 'user.message':
    case 'assistant.reasoning':
    case 'system.message':
    case 'system.notification':
      return str(d.content) ?? e.summary;
    case 'assistant.message': {
      const reqs = Array.isArray(d.toolRequests) ? d.toolRequests.filter(isObj) : [];
      return [str(d.content) ?? '', ...reqs.map((q) => `${str(q.name) ?? 'tool'} ${JSON.stringify(q.arguments ?? {})}`)]
        .filter(Boolean)
        .join('\n');
    }
    case 'tool.execution_start':
      return `${str(d.toolName) ?? 'tool'} ${JSON.stringify(d.arguments ?? {})}`;
    case 'tool.execution_complete':
      return resultText(d);
    default:
      return str(d.message) ?? str(d.summary) ?? JSON.stringify(d);
  }
}
