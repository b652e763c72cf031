/**
 * Hermes transcript lines → the normalized model: one SessionEvent per line, ChatItems for the conversation
 * (OpenAI chat completions: an assistant message with `tool_calls`, then one `tool` message per call, joined by
 * `tool_call_id`). Times in Hermes files are naive local time (Python's `datetime.now().isoformat()`, no zone), and
 * every message of a gateway turn carries the same one: they are shown as written and never converted, since the
 * host's UTC offset is not recorded.
 */
import type { JsonlRecord } from '../../model/records.js';
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { blankEvent, clip, isObj, str, type Obj } from '../shared/events.js';

/** Tool results Hermes writes itself instead of a real one (formats/pi-hermes.md §2.4). */
export const SYNTHETIC_RESULTS = [
  /^\[Tool execution cancelled — .* was skipped due to user interrupt\]/,
  /^\[Tool execution skipped — .* was not started\. User sent a new message\]/,
  /^Tool '.*' does not exist\. Available tools:/,
  /^Skipped: another tool call in this turn used an invalid name\./,
  /^\[Result from earlier conversation — see context summary above\]/,
  /^\[Result unavailable — see context summary above\]/,
];
export const isSynthetic = (text: string): boolean => SYNTHETIC_RESULTS.some((re) => re.test(text));

/**
 * What Hermes's approval gate wrote into a terminal result (tools/terminal_tool.py, tools/approval.py): the only
 * permission evidence a session holds (approvals and YOLO mode live in memory and config.yaml). Nothing is inferred
 * from a result without a marker.
 */
export type ApprovalMarker = 'blocked' | 'pending' | 'approved' | 'auto-approved';
const APPROVAL_WORDS: Record<ApprovalMarker, string> = {
  blocked: "blocked by Hermes's approval gate",
  pending: 'waiting for approval',
  approved: 'approved by the user',
  'auto-approved': 'auto-approved by smart approval',
};
export function approvalMarker(text: string): ApprovalMarker | undefined {
  if (/^\s*BLOCKED\b|"status":\s*"blocked"|"error":\s*"BLOCKED/.test(text)) return 'blocked';
  if (/"status":\s*"pending_approval"/.test(text)) return 'pending';
  if (/"approval":\s*"[^"]*auto-approved by smart approval/.test(text)) return 'auto-approved';
  if (/"approval":\s*"[^"]*approved by the user/.test(text)) return 'approved';
  return undefined;
}

/** The text of a message's content: a string, or OpenAI content parts. */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p) => (isObj(p) ? (str(p.text) ?? (p.type === 'image_url' ? '[image]' : '')) : ''))
      .filter(Boolean)
      .join(' ');
  return c === null || c === undefined ? '' : JSON.stringify(c);
}

export function toolCalls(v: Obj): Array<{ id: string; name: string; args: string }> {
  if (!Array.isArray(v.tool_calls)) return [];
  return v.tool_calls.filter(isObj).map((c) => {
    const f = isObj(c.function) ? c.function : {};
    return { id: str(c.id) ?? str(c.call_id) ?? '', name: str(f.name) ?? '?', args: str(f.arguments) ?? '' };
  });
}

const localTime = (v: Obj): string => (str(v.timestamp) !== undefined ? ` [local ${str(v.timestamp)}]` : '');

export class HermesNormalizer {
  private seq = 0;
  private turns = -1;
  /** No conversation item of the current Hermes session was handed on yet. */
  private fresh = true;
  readonly identity: SessionIdentity = { subagents: [] };
  constructor(
    private readonly file: string,
    id: string,
  ) {
    this.identity.id = id;
  }

  skip(): void {
    this.seq++;
  }

  /** The next records belong to another Hermes session (its turns count from 0). */
  session(): void {
    this.turns = -1;
    this.fresh = true;
  }

  push(r: JsonlRecord, rail = 'hermes'): { event: SessionEvent; chats: ChatItem[] } {
    const e = blankEvent(this.file, r, rail, this.seq++);
    const chats: ChatItem[] = [];
    const v = r.value;
    if (!isObj(v)) {
      e.summary = 'not an object';
      return { event: e, chats };
    }
    const chat = (c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>): void => {
      const item: ChatItem = { file: this.file, line: r.line, byteOffset: r.byteOffset, ...c };
      // Each Hermes session (a transcript, or one session's rows of state.db) is a conversation of its own.
      if (this.fresh) item.conversationStart = true;
      this.fresh = false;
      chats.push(item);
    };
    const role = str(v.role) ?? '';
    e.tag = role;
    if (this.turns >= 0) e.turn = this.turns;
    const text = contentText(v.content);
    switch (role) {
      case 'session_meta':
        e.kind = 'session_update';
        e.summary = clip(`session started: ${str(v.platform) ?? '?'}, model ${str(v.model) ?? '?'}${localTime(v)}`);
        if (this.identity.createdAt === undefined && str(v.timestamp)) this.identity.createdAt = str(v.timestamp)!;
        break;
      case 'system':
        e.kind = 'notice';
        e.summary = clip(`system: ${text}`);
        chat({ type: 'system', text: clip(text, 300) });
        break;
      case 'user':
        this.turns++;
        e.turn = this.turns;
        e.opensTurn = true;
        e.step = { k: 'user', pi: null };
        e.kind = 'user_prompt';
        e.summary = clip(`${text}${localTime(v)}`);
        chat({ type: 'user', text: clip(text, 300) });
        break;
      case 'assistant': {
        const calls = toolCalls(v);
        if (calls.length) {
          e.kind = 'tool_call';
          e.toolCallId = calls[0]!.id;
          e.toolTitle = calls[0]!.name;
          e.toolStatus = 'pending';
          e.summary = clip(`${calls.map((c) => `${c.name} ${c.args}`).join('; ')}${localTime(v)}`);
        } else {
          // Hermes's loop ends a turn when the model answers without tool calls: the model's answer closes the turn.
          e.kind = 'model_text';
          e.endsTurn = true;
          e.stopReason = str(v.finish_reason) ?? 'stop';
          e.summary = clip(`${text}${localTime(v)}`);
        }
        chat({
          type: 'assistant',
          text: clip(text, 300),
          ...(calls.length
            ? { toolCalls: calls.map((c) => ({ id: c.id, name: c.name, args: clip(c.args, 200), input: c.args })) }
            : {}),
        });
        break;
      }
      case 'tool': {
        e.kind = 'tool_update';
        e.toolCallId = str(v.tool_call_id);
        const gate = approvalMarker(text);
        e.toolStatus = gate === 'blocked' || /"status":\s*"error"/.test(text) ? 'failed' : 'completed';
        const synthetic = isSynthetic(text);
        const exit = /"exit_code":\s*(-?\d+)\s*[,}]/.exec(text);
        if (exit) e.toolExitCode = Number(exit[1]);
        e.summary = clip(`${e.toolCallId ?? '?'}${gate ? ` (${APPROVAL_WORDS[gate]})` : ''} — ${text}`);
        chat({
          type: 'tool_result',
          toolCallId: e.toolCallId ?? '',
          text: clip(text, 300),
          isError: e.toolStatus === 'failed',
          ...(synthetic ? { synthetic: true } : {}),
        });
        break;
      }
      default:
        e.summary = clip(`${role || 'no role'}: ${text}`);
    }
    return { event: e, chats };
  }
}

/** Full text of an event's content. */
export function hermesEventText(_e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v)) return '';
  const calls = toolCalls(v);
  const text = contentText(v.content);
  return calls.length ? [text, ...calls.map((c) => `${c.name} ${c.args}`)].filter(Boolean).join('\n') : text;
}
