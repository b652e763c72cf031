/**
 * opencode's rows → the normalized model (formats/opencode.md §2.3-2.4, §5): one SessionEvent per message and per
 * part, and the conversation as the model sees it. A `tool` part is a call and its result together, rewritten in
 * place: only `completed` and `error` are terminal, so a part left `pending` or `running` is a call without a
 * result (opencode turns it into "[Tool execution was interrupted]" in memory only, never on disk), and a clean
 * abort's "Tool execution aborted" with `metadata.interrupted` is a result opencode wrote itself.
 */
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { JsonlRecord } from '../../model/records.js';
import { validTimeMs } from '../../model/safe-values.js';
import { blankEvent, clip, isObj, num, str, type Obj } from '../shared/events.js';
import type { OcRow } from './rows.js';

export const TERMINAL = new Set(['completed', 'error']);

/** The result text opencode writes itself when the user aborts a running call (processor.ts:900-910). */
export const isAbortResult = (state: Obj): boolean =>
  state.status === 'error' &&
  state.error === 'Tool execution aborted' &&
  isObj(state.metadata) &&
  state.metadata.interrupted === true;

export const recordOf = (r: OcRow): JsonlRecord => ({
  line: r.line,
  byteOffset: 0,
  byteLength: r.byteLength,
  value: r.value ?? { table: r.table, id: r.id, problem: r.problem },
});

const stateOf = (v: Obj): Obj => (isObj(v.state) ? v.state : {});

/** A message's first text part (not a synthetic one): a user message's prompt. */
const firstText = (parts: readonly OcRow[]): OcRow | undefined =>
  parts.find((p) => p.value?.type === 'text' && p.value.synthetic !== true && p.value.ignored !== true);

/** The text of a message's text parts (not the synthetic ones opencode adds itself). */
const textOf = (parts: readonly OcRow[]): string =>
  parts
    .map((p) => p.value)
    .filter((v): v is Obj => v !== undefined && v.type === 'text' && v.synthetic !== true && v.ignored !== true)
    .map((v) => str(v.text) ?? '')
    .filter(Boolean)
    .join('\n');

const errorText = (v: Obj): string | undefined => {
  if (!isObj(v.error)) return undefined;
  const d = isObj(v.error.data) ? v.error.data : {};
  return `${str(v.error.name) ?? 'error'}${str(d.message) ? `: ${str(d.message)}` : ''}`;
};

/** What the timeline shows of a tool's state. */
function toolSummary(v: Obj): string {
  const st = stateOf(v);
  const input = st.input === undefined ? '' : JSON.stringify(st.input);
  const out =
    st.status === 'completed' ? ` → ${str(st.output) ?? ''}` : st.status === 'error' ? ` ✗ ${str(st.error)}` : '';
  return `${str(v.tool) ?? '?'} ${input} [${str(st.status) ?? '?'}]${out}`;
}

export class OpencodeNormalizer {
  private seq = 0;
  private turns = -1;
  private fresh = true;

  /** A blank event of the next place in the stream. */
  blank(file: string, r: JsonlRecord): SessionEvent {
    return blankEvent(file, r, 'opencode', this.seq++);
  }

  /** The next rows are another opencode session's (its turns count from 0, its conversation is its own). */
  session(): void {
    this.turns = -1;
    this.fresh = true;
  }

  /**
   * A row as its events (a terminal tool part gives two: its call, then its result). `message`: the message a part
   * belongs to; `time` (the timeline) gives each event its own clock, `time_created` (else `time_updated`).
   */
  events(
    r: OcRow,
    message: OcRow | undefined,
    parts: readonly OcRow[],
    time: boolean,
    /** Replaying E3's event log: the parts whose call was shown already (a later state is an update only). */
    shown?: Set<string>,
  ): SessionEvent[] {
    const e = blankEvent(r.file, recordOf(r), 'opencode', this.seq++);
    e.sessionId = r.sessionId;
    if (time) {
      const ms = validTimeMs(r.timeCreated ?? r.timeUpdated);
      if (ms !== undefined) {
        e.timeMs = ms;
        e.timeSource = 'agentTimestampMs';
      }
    }
    const v = r.value;
    const tag = (s: string) => `[${r.sessionId}] ${s}`;
    if (!v) {
      e.tag = r.table;
      e.summary = tag(`${r.table} ${r.id}: ${r.problem ?? 'unreadable'}`);
      return [e];
    }
    if (this.turns >= 0) e.turn = this.turns;
    const openTurn = () => {
      this.turns++;
      e.turn = this.turns;
      e.opensTurn = true;
      e.step = { k: 'user', pi: null };
      e.kind = 'user_prompt';
    };
    if (r.table === 'message') {
      const role = str(v.role) ?? '';
      e.tag = role || 'message';
      if (role === 'user') {
        // The prompt is the message's first text part; a message without one opens its turn itself.
        if (firstText(parts) === undefined) {
          openTurn();
          e.summary = tag('(a prompt without text)');
        } else {
          e.kind = 'notice';
          e.summary = tag(clip(`user message${str(v.agent) ? `, agent ${str(v.agent)}` : ''}`));
        }
      } else if (role === 'assistant') {
        const t = isObj(v.time) ? v.time : {};
        const err = errorText(v);
        const done = num(t.completed) !== undefined;
        if (v.summary === true) e.kind = 'compaction_completed';
        else if (done && str(v.finish) !== 'tool-calls') {
          e.kind = 'turn_completed';
          const aborted = isObj(v.error) && v.error.name === 'MessageAbortedError';
          e.stopReason = err ? (aborted ? 'cancelled' : 'error') : (str(v.finish) ?? 'stop');
        } else e.kind = 'response';
        const model = [str(v.providerID), str(v.modelID)].filter(Boolean).join('/');
        e.summary = tag(clip(`${model ? `${model}: ` : ''}${err ?? ''}${done ? '' : ' (not completed)'}`));
      } else e.summary = tag(`message with role ${JSON.stringify(v.role)}`);
      return [e];
    }
    const type = str(v.type) ?? '';
    const user = message?.value?.role === 'user';
    e.tag = type || 'part';
    switch (type) {
      case 'text':
        if (user && firstText(parts) === r) openTurn();
        else e.kind = user ? 'notice' : 'model_text';
        e.summary = tag(clip(str(v.text) ?? ''));
        break;
      case 'reasoning':
        e.kind = 'thought';
        e.summary = tag(clip(str(v.text) ?? ''));
        break;
      case 'tool': {
        const st = stateOf(v);
        e.kind = 'tool_call';
        e.toolCallId = str(v.callID);
        e.toolTitle = str(v.tool);
        e.toolStatus = str(st.status);
        e.summary = tag(clip(toolSummary(v)));
        if (shown) {
          // A state of the part's history: the call once its input is known (running, or a terminal state first),
          // every other state an update.
          if (shown.has(r.id) || st.status === 'pending') {
            e.kind = 'tool_update';
            if (st.status === 'completed' || st.status === 'error')
              e.toolStatus = st.status === 'completed' ? 'completed' : 'failed';
            return [e];
          }
          shown.add(r.id);
        }
        if (!TERMINAL.has(String(st.status))) return [e];
        const u: SessionEvent = { ...e, seq: this.seq++, kind: 'tool_update' };
        u.toolStatus = st.status === 'completed' ? 'completed' : 'failed';
        return [e, u];
      }
      case 'compaction':
        e.kind = 'compaction_started';
        e.summary = tag(`compaction${v.auto === true ? ' (automatic)' : ''}`);
        break;
      case 'subtask':
      case 'agent':
        e.kind = 'subagent_spawned';
        e.summary = tag(clip(`${str(v.agent) ?? str(v.name) ?? '?'}: ${str(v.description) ?? str(v.prompt) ?? ''}`));
        break;
      case 'retry':
        e.kind = 'retry';
        e.summary = tag(`retry ${num(v.attempt) ?? '?'}`);
        break;
      case 'patch': {
        const files = Array.isArray(v.files) ? v.files : [];
        e.kind = 'notice';
        e.summary = tag(clip(`patch ${files.length} file(s): ${files.join(', ')}`));
        break;
      }
      default:
        e.kind = 'notice';
        e.summary = tag(
          clip(`${type || 'part'}${str(v.reason) ? ` ${str(v.reason)}` : ''}${str(v.text) ? `: ${str(v.text)}` : ''}`),
        );
    }
    return [e];
  }

  /** The conversation items of one message and its parts (the model's view: calls with their results). */
  chats(m: OcRow, parts: readonly OcRow[]): ChatItem[] {
    const out: ChatItem[] = [];
    const v = m.value;
    if (!v) return out;
    // A JSON tree keeps each part in a file of its own: its message's items are placed at the message's file, so
    // that a message's calls and results are one run of one conversation file (a database's rows share one file).
    const item = (row: OcRow, c: Omit<ChatItem, 'file' | 'line' | 'byteOffset'>): void => {
      const at = row.file === m.file ? row : m;
      const x: ChatItem = { file: at.file, line: at.line, byteOffset: 0, ...c };
      if (this.fresh) x.conversationStart = true;
      this.fresh = false;
      out.push(x);
    };
    if (v.role === 'user') {
      item(m, { type: 'user', text: clip(textOf(parts), 300) });
      return out;
    }
    if (v.role !== 'assistant') return out;
    const tools = parts.filter((p) => p.value?.type === 'tool');
    const text = clip(textOf(parts), 300);
    if (!tools.length) {
      item(m, { type: 'assistant', text, hasModelId: str(v.modelID) !== undefined });
      return out;
    }
    item(tools[0]!, {
      type: 'assistant',
      text,
      toolCalls: tools.map((p) => {
        const input = stateOf(p.value!).input;
        return {
          id: str(p.value!.callID) ?? '',
          name: str(p.value!.tool) ?? '?',
          args: clip(JSON.stringify(input ?? {}), 200),
          input,
        };
      }),
    });
    let open = false;
    for (const p of tools) {
      const st = stateOf(p.value!);
      if (!TERMINAL.has(String(st.status))) {
        open = true;
        continue;
      }
      const output = st.status === 'completed' ? (str(st.output) ?? '') : (str(st.error) ?? '');
      item(p, {
        type: 'tool_result',
        toolCallId: str(p.value!.callID) ?? '',
        text: clip(output, 300),
        isError: st.status === 'error',
        ...(isAbortResult(st) ? { synthetic: true } : {}),
      });
    }
    // A message opencode completed (its step went on) with a call still pending or running: the turn went on.
    if (open && isObj(v.time) && num(v.time.completed) !== undefined) item(m, { type: 'assistant', text: '' });
    return out;
  }
}

/** An event of E3's log that is not a row's state (a session created or updated, a row removed), as an event. */
export function logEvent(
  n: OpencodeNormalizer,
  file: string,
  line: number,
  session: string,
  type: string,
  data: Obj | undefined,
): { event: SessionEvent; record: JsonlRecord } {
  const record: JsonlRecord = { line, byteOffset: 0, byteLength: 0, value: { type: `event:${type}`, ...data } };
  const e = n.blank(file, record);
  e.sessionId = session;
  e.tag = type;
  const info = data && isObj(data.info) ? data.info : undefined;
  const t = info && isObj(info.time) ? info.time : undefined;
  const at = t ? (type.includes('.created') ? num(t.created) : (num(t.updated) ?? num(t.created))) : undefined;
  const ms = validTimeMs(at);
  if (ms !== undefined) {
    e.timeMs = ms;
    e.timeSource = 'agentTimestampMs';
  }
  e.kind = type.startsWith('session.') ? 'session_update' : 'notice';
  const what = info ? str(info.title) : (str(data?.partID) ?? str(data?.messageID));
  e.summary = `[${session}] ${type}${what ? ` ${clip(what, 80)}` : ''}`;
  return { event: e, record };
}

/** Full text of an event's row: a prompt or a reply, a tool's input and output. */
export function opencodeEventText(_e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v)) return '';
  if (v.type === 'tool') {
    const st = stateOf(v);
    return [`${str(v.tool) ?? '?'} ${JSON.stringify(st.input ?? {})}`, str(st.output) ?? str(st.error) ?? '']
      .filter(Boolean)
      .join('\n');
  }
  if (typeof v.text === 'string') return v.text;
  return errorText(v) ?? '';
}
