/**
 * Pi entries → the normalized model: one SessionEvent per line, ChatItems for what Pi puts in the model's context
 * (user, assistant, toolResult messages; the user's `!` shell runs, custom messages and branch summaries as user
 * items), the session's identity from the header, and the entries off the path a resume continues from.
 */
import { basename } from 'node:path';
import type { JsonlRecord } from '../../model/records.js';
import { validTimeMs } from '../../model/safe-values.js';
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { SessionIdentity } from '../../model/identity.js';
import { blankEvent, clip, isObj, isoMs, num, str, toRanges, type Obj } from '../shared/events.js';
import { piIdFromName } from './artifacts.js';
import { PiTree, type TreeFacts } from './tree.js';

/** Results Pi writes itself for a call it did not run (agent-loop.ts): persisted as ordinary toolResults. */
const SYNTHETIC = [/^Skipped due to queued user message\.?$/, /^Tool execution was blocked/, /^Tool \S+ not found$/];

export function blockText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (!Array.isArray(c)) return '';
  return c
    .map((b) => {
      if (!isObj(b)) return '';
      if (b.type === 'text') return str(b.text) ?? '';
      if (b.type === 'thinking') return str(b.thinking) ?? '';
      if (b.type === 'toolCall') return `[${str(b.name) ?? 'tool'}]`;
      if (b.type === 'image') return '[image]';
      return '';
    })
    .filter(Boolean)
    .join(' ');
}

const blocks = (m: Obj): Obj[] => (Array.isArray(m.content) ? m.content.filter(isObj) : []);

/** Why Pi runs none of the calls of a response that ended so (the agent loop stops on error and abort). */
const ABANDONED: Record<string, string> = {
  error: 'the response ended with stopReason "error"',
  aborted: 'the response ended with stopReason "aborted" (the user interrupted it)',
};

type Chat = Omit<ChatItem, 'file' | 'line' | 'byteOffset'>;

export class PiNormalizer {
  private seq = 0;
  private file = '';
  private turns = -1;
  private tree = new PiTree();
  private facts: TreeFacts | undefined;
  liveTurns = 0;
  private readonly prompts: number[] = [];
  readonly identity: SessionIdentity = { subagents: [] };

  begin(file: string): void {
    this.file = file;
  }

  skip(): void {
    this.seq++;
  }

  push(r: JsonlRecord): { event: SessionEvent; chats: ChatItem[] } {
    const e = blankEvent(this.file, r, 'pi', this.seq++);
    this.tree.add(r, e.seq);
    const chats: ChatItem[] = [];
    const v = r.value;
    if (!isObj(v)) {
      e.summary = 'not an object';
      return { event: e, chats };
    }
    // The header's time is when the file was made (Pi flushes entries it buffered earlier under it, and a fork
    // copies older entries): not the time of an event.
    const ms = v.type === 'session' ? undefined : validTimeMs(isoMs(v.timestamp));
    if (ms !== undefined) {
      e.timeMs = ms;
      e.timeSource = 'line';
    }
    const type = str(v.type) ?? '';
    e.tag = type === 'message' && isObj(v.message) && str(v.message.role) ? `message/${str(v.message.role)}` : type;
    e.eventId = str(v.id);
    if (this.turns >= 0) e.turn = this.turns;
    const chat = (c: Chat): void => {
      chats.push({ file: this.file, line: r.line, byteOffset: r.byteOffset, ...c });
    };
    switch (type) {
      case 'session':
        this.header(e, v, r);
        break;
      case 'message':
        this.message(e, isObj(v.message) ? v.message : {}, chat);
        break;
      case 'model_change':
        e.kind = 'model_change';
        e.summary = `model ${str(v.provider) ? `${str(v.provider)}/` : ''}${str(v.modelId) ?? '?'}`;
        if (str(v.modelId) !== undefined) this.identity.model = str(v.modelId)!;
        break;
      case 'thinking_level_change':
        e.kind = 'session_update';
        e.summary = `thinking level ${str(v.thinkingLevel) ?? '?'}`;
        break;
      case 'compaction': {
        // The cut itself: the model sees its summary, then the entries from the first kept one on.
        e.kind = 'compaction_checkpoint';
        const kept = this.tree.keptFrom(e.seq);
        if (kept !== undefined) e.keptFrom = kept;
        e.summary = clip(`compaction (${num(v.tokensBefore) ?? '?'} tokens before): ${str(v.summary) ?? ''}`);
        break;
      }
      case 'branch_summary':
        e.kind = 'notice';
        e.summary = clip(`branch summary from ${str(v.fromId) ?? '?'}: ${str(v.summary) ?? ''}`);
        chat({ type: 'user', text: clip(str(v.summary) ?? '', 300) });
        break;
      case 'custom_message':
        e.kind = 'notice';
        e.summary = clip(`${str(v.customType) ?? 'custom'} message: ${blockText(v.content)}`);
        chat({ type: 'user', text: clip(blockText(v.content), 300) });
        break;
      case 'custom':
        e.kind = 'notice';
        e.summary = `extension state ${str(v.customType) ?? '?'}`;
        break;
      case 'label':
        e.kind = 'session_update';
        e.summary = `label ${str(v.targetId) ?? '?'}: ${str(v.label) ?? '(cleared)'}`;
        break;
      case 'session_info':
        e.kind = 'session_update';
        e.summary = clip(`session name ${str(v.name) ?? '(none)'}`);
        break;
      default:
        e.summary = type ? `unknown entry ${JSON.stringify(type)}` : 'no type';
    }
    // A prompt recovered from a damaged line is not one Pi can replay.
    if (e.opensTurn && r.recovered === undefined) this.prompts.push(e.seq);
    return { event: e, chats };
  }

  private header(e: SessionEvent, v: Obj, r: JsonlRecord): void {
    e.kind = 'session_update';
    e.sessionId = str(v.id);
    const version = v.version === undefined || v.version === null ? 1 : v.version;
    e.summary = clip(`session header v${String(version)}${str(v.cwd) ? ` in ${str(v.cwd)}` : ''}`);
    if (r.line !== 1 || r.recovered !== undefined) return;
    const id = this.identity;
    if (str(v.id) !== undefined) id.id = str(v.id)!;
    if (str(v.cwd) !== undefined) id.cwd = str(v.cwd)!;
    if (str(v.timestamp) !== undefined) id.createdAt = str(v.timestamp)!;
    if (str(v.modelId) !== undefined) id.model = str(v.modelId)!;
    const field = str(v.parentSession) !== undefined ? 'parentSession' : 'branchedFrom';
    const parent = str(v[field]);
    if (parent !== undefined) {
      id.kind = 'fork';
      id.parentId = piIdFromName(basename(parent));
      id.linkAt = { file: this.file, line: r.line, byteOffset: r.byteOffset, pointer: `/${field}` };
      id.linkEvidence = `the header's ${field} names ${basename(parent)}`;
    }
  }

  private message(e: SessionEvent, m: Obj, chat: (c: Chat) => void): void {
    const role = str(m.role) ?? '';
    switch (role) {
      case 'user': {
        const text = blockText(m.content);
        e.kind = 'user_prompt';
        e.summary = clip(text);
        this.turns++;
        e.turn = this.turns;
        e.opensTurn = true;
        chat({ type: 'user', text: clip(text, 300) });
        return;
      }
      case 'assistant': {
        const bs = blocks(m);
        const calls = bs.filter((b) => b.type === 'toolCall');
        const text = blockText(bs.filter((b) => b.type === 'text'));
        const stop = str(m.stopReason);
        // The normalized vocabulary calls a user's interruption "cancelled".
        if (stop !== undefined) e.stopReason = stop === 'aborted' ? 'cancelled' : stop;
        if (str(m.model) !== undefined) this.identity.model = str(m.model)!;
        const abandoned = stop !== undefined ? ABANDONED[stop] : undefined;
        const err = str(m.errorMessage);
        if (calls.length) {
          const first = calls[0]!;
          e.kind = 'tool_call';
          e.toolCallId = str(first.id);
          e.toolTitle = str(first.name);
          e.toolStatus = 'pending';
          e.summary = clip(
            `${e.toolTitle ?? '?'} ${JSON.stringify(first.arguments ?? {})}` +
              `${calls.length > 1 ? ` (+${calls.length - 1} more)` : ''}`,
          );
          chat({
            type: 'assistant',
            toolCalls: calls.map((b) => ({
              id: str(b.id) ?? '',
              name: str(b.name) ?? '',
              args: clip(JSON.stringify(b.arguments ?? {}), 200),
              input: b.arguments,
            })),
            text: clip(text, 300),
            ...(abandoned !== undefined ? { abandoned } : {}),
          });
        } else if (bs.length && bs.every((b) => b.type === 'thinking')) {
          e.kind = 'thought';
          e.summary = clip(blockText(bs) || '(thinking)');
          chat({ type: 'reasoning', text: e.summary });
        } else {
          // The model's answer (a response that ends the turn, too, when it stopped or was cut short); a response that
          // said nothing is only the turn's end.
          const ends = stop === 'stop' || abandoned !== undefined;
          e.kind = text || !ends ? 'model_text' : 'turn_completed';
          if (ends && e.kind === 'model_text') e.endsTurn = true;
          e.summary = clip(text || (err !== undefined ? `error: ${err}` : stop ? `(${stop})` : '(empty response)'));
          chat({ type: 'assistant', text: clip(text, 300) });
        }
        return;
      }
      case 'toolResult': {
        const text = blockText(m.content);
        e.kind = 'tool_update';
        e.toolCallId = str(m.toolCallId);
        e.toolTitle = str(m.toolName);
        e.toolStatus = m.isError === true ? 'failed' : 'completed';
        // A bash result ends with the exit code when it is not zero.
        const exit = /(?:^|\n)Command exited with code (\d+)\s*$/.exec(text.slice(-80));
        if (exit) e.toolExitCode = Number(exit[1]);
        e.summary = clip(`${e.toolCallId ?? '?'} — ${text}`);
        chat({
          type: 'tool_result',
          toolCallId: str(m.toolCallId) ?? '',
          text: clip(text, 300),
          isError: m.isError === true,
          ...(m.isError === true && SYNTHETIC.some((re) => re.test(text.trim())) ? { synthetic: true } : {}),
        });
        return;
      }
      case 'bashExecution': {
        e.kind = 'notice';
        const code = num(m.exitCode);
        e.summary = clip(
          `user shell !${str(m.command) ?? '?'}${code !== undefined ? ` (exit ${code})` : ''}` +
            `${m.cancelled === true ? ' (cancelled)' : ''}`,
        );
        if (m.excludeFromContext !== true) chat({ type: 'user', text: clip(str(m.command) ?? '', 300) });
        return;
      }
      case 'custom':
      case 'hookMessage':
        e.kind = 'notice';
        e.summary = clip(`${str(m.customType) ?? role} message: ${blockText(m.content)}`);
        chat({ type: 'user', text: clip(blockText(m.content), 300) });
        return;
      default:
        e.summary = `message with unknown role ${JSON.stringify(role)}`;
    }
  }

  /** End of the file: the tree as Pi rebuilds it, and the prompt turns on the path a resume continues. */
  endFile(): TreeFacts {
    this.facts = this.tree.finish();
    const off = new Set(this.facts.offPath);
    this.liveTurns = this.prompts.filter((s) => !off.has(s)).length;
    return this.facts;
  }

  deadRanges(): Array<readonly [number, number]> {
    return toRanges([...(this.facts?.offPath ?? [])].sort((a, b) => a - b));
  }
}

/** The full text an event carries, never truncated. */
export function piEventText(e: SessionEvent, r: JsonlRecord): string {
  const v = r.value;
  if (!isObj(v)) return e.summary;
  if (v.type === 'message' && isObj(v.message)) {
    const m = v.message;
    if (m.role === 'bashExecution') return `!${str(m.command) ?? ''}\n${str(m.output) ?? ''}`;
    if (typeof m.content === 'string') return m.content;
    return blocks(m)
      .map((b) =>
        b.type === 'toolCall' ? `${str(b.name) ?? 'tool'} ${JSON.stringify(b.arguments ?? {})}` : blockText([b]),
      )
      .filter(Boolean)
      .join('\n');
  }
  if (typeof v.summary === 'string') return v.summary;
  if (v.type === 'custom_message') return blockText(v.content);
  return JSON.stringify(v);
}
