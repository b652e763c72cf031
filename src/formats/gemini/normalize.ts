/**
 * Gemini records → the normalized model. Every line is one event that says what it did to the conversation (a
 * message, a copy that superseded an earlier one, a snapshot, a rewind, a metadata patch) and what became of it by
 * the end of the file; the conversation items are the fold the CLI loads (a call and its result are one toolCalls
 * entry; the result's copies, a v0.44+ user message and a resume's `<id>_response` turn, are the same result).
 */
import type { JsonlRecord } from '../../model/records.js';
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { validTimeMs } from '../../model/safe-values.js';
import { blankEvent, clip, isObj, isoMs, str, toRanges, type Obj } from '../shared/events.js';
import { recordKind, type Fate, type FoldFacts } from './fold.js';
import { CANCELLED, CONTEXT, callsOf, contentText, contextCwd, isPrompt, responses, thoughtsText } from './parts.js';

export interface Numbered {
  seq: number;
  record: JsonlRecord;
}

const fateText = (f: Fate | undefined): string =>
  f === undefined || f.k === 'final'
    ? ''
    : f.k === 'superseded'
      ? ` (superseded by the copy at line ${f.by})`
      : f.k === 'rewound'
        ? ` (removed by the rewind at line ${f.by})`
        : ` (not in the conversation the CLI loads: the history snapshot at line ${f.by} left it out)`;

const STATUS: Record<string, string> = { success: 'completed', error: 'failed', cancelled: 'cancelled' };

/** The ids of every call in the folded conversation. */
function foldedCalls(facts: FoldFacts): Set<string> {
  const ids = new Set<string>();
  for (const m of facts.messages) if (m.value.type === 'gemini') for (const c of callsOf(m.value)) ids.add(c.id);
  return ids;
}

/** When the tool calls of a message were recorded: the latest of their timestamps. */
function callsTime(m: Obj): number | undefined {
  let best: number | undefined;
  for (const c of callsOf(m)) {
    const ms = validTimeMs(isoMs(c.entry?.timestamp));
    if (ms !== undefined && (best === undefined || ms > best)) best = ms;
  }
  return best;
}

/** What makes the event of each record, in file order (seq by seq), once the file is folded. */
export function eventMaker(file: string, facts: FoldFacts): (n: Numbered) => SessionEvent {
  const calls = foldedCalls(facts);
  let turns = -1;
  return ({ seq, record: r }) => {
    const e = blankEvent(file, r, 'gemini', seq);
    const v = r.value;
    const did = facts.did.get(seq);
    const kind = r.recovered !== undefined ? 'other' : recordKind(v);
    e.tag = kind;
    if (turns >= 0) e.turn = turns;
    if (kind === 'message') {
      const m = v as Obj;
      const fate = facts.fates.get(seq);
      const after = fateText(fate);
      // A new copy keeps the first copy's timestamp, not the time the line was written; one that adds tool calls
      // is written when they are recorded, which their own timestamps say.
      const ms = did?.startsWith('a new copy') ? callsTime(m) : validTimeMs(isoMs(m.timestamp));
      if (ms !== undefined) {
        e.timeMs = ms;
        e.timeSource = 'line';
      }
      e.eventId = m.id as string;
      const type = str(m.type) ?? '?';
      e.tag = type;
      const copy = did?.startsWith('a new copy') ? ' [a new copy of an earlier line]' : '';
      // A copy a later line shows again is a notice here; one only a snapshot carries on is shown as it was.
      if (fate?.k === 'superseded' && !fate.snapshot) {
        e.kind = 'notice';
        const what =
          contentText(m.content) ||
          responses(m.content)
            .map((x) => x.text)
            .join(' ') ||
          thoughtsText(m);
        e.summary = clip(`${type} message ${m.id as string}${after}: ${what}`);
      } else if (type === 'user') {
        const rs = responses(m.content);
        const text = contentText(m.content);
        if (rs.length) {
          const answered = rs.every((x) => calls.has(x.id));
          e.kind = answered ? 'notice' : 'tool_update';
          e.toolCallId = rs[0]!.id;
          e.toolTitle = rs[0]!.name;
          e.toolStatus = rs[0]!.error ? 'failed' : 'completed';
          e.summary = clip(
            `${answered ? 'the result(s), again, of ' : ''}${rs.map((x) => x.id).join(', ')} — ${rs[0]!.text}${after}`,
          );
        } else if (CONTEXT.test(text)) {
          e.kind = 'notice';
          e.summary = clip(`session context${after}`);
        } else {
          e.kind = 'user_prompt';
          e.summary = clip(`${text}${copy}${after}`);
          if (isPrompt(m)) {
            turns++;
            e.turn = turns;
            e.opensTurn = true;
          }
        }
      } else if (type === 'gemini') {
        const cs = callsOf(m);
        const text = contentText(m.content);
        if (cs.length) {
          const first = cs[0]!;
          e.kind = 'tool_call';
          e.toolCallId = first.id;
          e.toolTitle = first.name;
          const status = str(first.entry?.status);
          e.toolStatus = status !== undefined ? (STATUS[status] ?? status) : 'pending';
          e.summary = clip(
            `${first.name} ${JSON.stringify(first.args)}${cs.length > 1 ? ` (+${cs.length - 1} more)` : ''}` +
              `${status ? ` → ${status}` : ''}${copy}${after}`,
          );
        } else if (!text && thoughtsText(m)) {
          e.kind = 'thought';
          e.summary = clip(`${thoughtsText(m)}${copy}${after}`);
        } else {
          e.kind = 'model_text';
          e.summary = clip(`${text || '(no text)'}${copy}${after}`);
          // Gemini CLI writes no record for the end of a turn: a reply without calls ends it.
          if (text) e.stopReason = 'end_turn';
        }
      } else {
        e.kind = 'notice';
        e.summary = clip(`${type}: ${contentText(m.content)}${after}`);
      }
    } else {
      e.kind = kind === 'rewind' ? 'rewind_marker' : kind === 'other' ? 'unknown' : 'session_update';
      e.summary = clip(did ?? 'not a record the CLI knows: its loader ignores it', 200);
      if (isObj(v)) {
        // A metadata line is written when the file is made (startTime); a $set when it happens (lastUpdated).
        const ms = validTimeMs(isoMs(kind === 'meta' ? v.startTime : isObj(v.$set) ? v.$set.lastUpdated : undefined));
        if (ms !== undefined && kind !== 'other') {
          e.timeMs = ms;
          e.timeSource = 'line';
        }
        if (kind === 'meta') e.sessionId = str(v.sessionId);
      }
    }
    return e;
  };
}

type Chat = Omit<ChatItem, 'file'>;

/** The conversation the CLI loads, as conversation items (info, error and warning messages are not sent). */
export function chats(file: string, facts: FoldFacts): ChatItem[] {
  const out: Chat[] = [];
  const answered = new Set<string>();
  for (const f of facts.messages) {
    const m = f.value;
    const at = { line: f.line, byteOffset: f.byteOffset };
    if (m.type === 'user') {
      const rs = responses(m.content);
      if (!rs.length) {
        out.push({ ...at, type: 'user', text: clip(contentText(m.content), 300) });
        continue;
      }
      for (const r of rs) {
        if (answered.has(r.id)) continue;
        answered.add(r.id);
        out.push({ ...at, type: 'tool_result', toolCallId: r.id, text: clip(r.text, 300), isError: r.error });
      }
    } else if (m.type === 'gemini') {
      const cs = callsOf(m);
      const text = contentText(m.content);
      if (!cs.length) {
        if (text) out.push({ ...at, type: 'assistant', text: clip(text, 300), hasModelId: str(m.model) !== undefined });
        else if (thoughtsText(m)) out.push({ ...at, type: 'reasoning', text: clip(thoughtsText(m), 300) });
        continue;
      }
      out.push({
        ...at,
        type: 'assistant',
        text: clip(text, 300),
        toolCalls: cs.map((c) => ({ id: c.id, name: c.name, args: clip(JSON.stringify(c.args), 200), input: c.args })),
      });
      for (const c of cs) {
        if (!c.entry) continue;
        const status = str(c.entry.status);
        const r = responses(c.entry.result).find((x) => x.id === c.id) ?? responses(c.entry.result)[0];
        if (!r) continue;
        answered.add(c.id);
        out.push({
          ...at,
          type: 'tool_result',
          toolCallId: c.id,
          text: clip(r.text, 300),
          isError: status !== 'success' || r.error,
          ...(status === 'cancelled' || r.text.startsWith(CANCELLED) ? { synthetic: true } : {}),
        });
      }
    }
  }
  return out.map((c) => ({ file, ...c }));
}

/** What the session records about itself: its id, project directory, times, kind, model and the subagents it ran. */
export function identityOf(file: string, facts: FoldFacts, parentDir: string | undefined): SessionIdentity {
  const md = facts.metadata;
  const id: SessionIdentity = { subagents: [] };
  const sid = str(md.sessionId);
  if (sid !== undefined) id.id = sid;
  const first = facts.firstMeta;
  const created = first?.startTime ?? str(md.startTime);
  if (created !== undefined) id.createdAt = created;
  if (str(md.lastUpdated) !== undefined) id.updatedAt = str(md.lastUpdated)!;
  for (const m of facts.messages) {
    const v = m.value;
    if (v.type === 'user' && id.cwd === undefined) {
      const cwd = contextCwd(contentText(v.content));
      if (cwd !== undefined) id.cwd = cwd;
    }
    if (v.type === 'gemini' && str(v.model) !== undefined) id.model = str(v.model)!;
    for (const c of callsOf(v)) {
      const agent = str(c.entry?.agentId);
      if (agent === undefined) continue;
      const status = str(c.entry?.status);
      id.subagents.push({
        id: agent,
        file,
        line: m.line,
        type: c.name,
        ...(status !== undefined ? { status: STATUS[status] ?? status } : {}),
      });
    }
  }
  // A subagent's metadata line names its workspace directories.
  const dirs = Array.isArray(md.directories) ? md.directories : [];
  if (id.cwd === undefined && typeof dirs[0] === 'string') id.cwd = dirs[0];
  if (str(md.kind) === 'subagent') {
    id.kind = 'subagent';
    if (parentDir !== undefined && parentDir !== 'chats') {
      id.parentId = parentDir;
      id.linkEvidence = `the file sits in chats/${parentDir}/, the folder of its parent session`;
      id.selfLinked = true;
    }
    if (first) id.kindAt = { file, line: first.line, byteOffset: first.byteOffset, pointer: '/kind' };
  }
  return id;
}

/** Seq ranges of the lines a rewind removed from the conversation. */
export function rewoundRanges(facts: FoldFacts): Array<readonly [number, number]> {
  return toRanges(
    [...facts.fates]
      .filter(([, f]) => f.k === 'rewound')
      .map(([s]) => s)
      .sort((a, b) => a - b),
  );
}

/** The prompts the conversation the CLI loads holds. */
export const liveTurns = (facts: FoldFacts): number => facts.messages.filter((m) => isPrompt(m.value)).length;
