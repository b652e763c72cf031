/**
 * Collects what tool pairing needs from the two logs, as they stream: every call and result in the
 * conversation (with where it sits relative to its call), and every tool_call / tool_call_update in the
 * authoritative log (with its turn and branch).
 *
 * Memory: one row per call id in column arrays (about 100 bytes a call), titles only while a call is unfinished,
 * and full objects only for the rare results that need a finding. A session with a million tool calls stays
 * within the reader's memory bar.
 */
import { keep, type ChatItem, type DeadRanges, type SessionEvent } from '../model/events.js';
import type { PairingDialect } from './dialect.js';

export interface Where {
  file: string;
  line: number;
  byteOffset: number;
}

export interface ChatCall extends Where {
  id: string;
  name: string;
  /** Index of the chat turn (user prompt turns seen so far; -1 before the first). */
  turn: number;
  /** A later item in the same turn is assistant text without tool calls: the turn went on. */
  continuedAfter: boolean;
  /** The call's arguments (first 200 characters), kept only when the collector is asked to (inspect, pairs). */
  args?: string;
  /** The response that made the call ended without running its calls (ChatItem.abandoned). */
  abandoned?: string;
}

export interface ChatResult extends Where {
  id: string;
  synthetic: boolean;
  /**
   * Placement relative to the call's assistant: in its contiguous run, in it but past reasoning items, or elsewhere.
   */
  placement: 'run' | 'lenient' | 'displaced';
  /** The call was declared before this result. */
  declaredBefore: boolean;
}

/** Where an event sits in the order the agent emitted it: its file position, and its event-id counter if any. */
export interface Emission {
  seq: number;
  counter?: number;
  eventPrefix?: string;
}

/**
 * `a` was emitted after `b`: by event-id counter when both carry one minted by the same session (an agent's writer
 * can put a line on disk after lines emitted later), else by file order.
 */
export function emittedAfter(a: Emission, b: Emission): boolean {
  if (a.counter !== undefined && b.counter !== undefined && a.eventPrefix === b.eventPrefix)
    return a.counter > b.counter;
  return a.seq > b.seq;
}

export interface LogCall extends Where, Emission {
  id: string;
  title: string | undefined;
  kind: string | undefined;
  /** seq of the chunk that opened the call's turn (-1 before the first counted turn). */
  turnKey: number;
  promptIndex: number | undefined;
  terminal: (Where & { status: string }) | undefined;
  updates: number;
}

export interface TurnEnd extends Where {
  stopReason?: string;
}

const STATUS = ['', 'completed', 'failed'] as const;

/** Interns repeated short strings (tool kinds and names) so each distinct value is stored once. */
class Interner {
  private readonly m = new Map<string, string>();
  get(s: string): string {
    let v = this.m.get(s);
    if (v === undefined) {
      v = keep(s);
      if (this.m.size < 10_000) this.m.set(v, v);
    }
    return v;
  }
}

/** tool_call rows of the authoritative log, in column arrays. */
export class LogCallTable {
  private readonly index = new Map<string, number>();
  private readonly ids: string[] = [];
  private readonly line: number[] = [];
  private readonly offset: number[] = [];
  private readonly seq: number[] = [];
  /** Event-id counter (NaN: none) and prefix of the tool_call line. */
  private readonly counter: number[] = [];
  private readonly prefix: Array<string | undefined> = [];
  private readonly turn: number[] = [];
  private readonly prompt: number[] = [];
  private readonly kind: Array<string | undefined> = [];
  private readonly termLine: number[] = [];
  private readonly termOffset: number[] = [];
  private readonly termStatus: number[] = [];
  private readonly updates: number[] = [];
  /** Titles of calls that have not finished (all titles when keepTitles). */
  private readonly titles = new Map<number, string>();

  constructor(
    private readonly interner: Interner,
    private readonly keepTitles: boolean,
    private readonly file: string,
  ) {}

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  add(e: SessionEvent & { toolCallId: string }, turnKey: number): number {
    const i = this.ids.length;
    const id = keep(e.toolCallId);
    this.index.set(id, i);
    this.lastId = id;
    this.lastIndex = i;
    this.ids.push(id);
    this.line.push(e.line);
    this.offset.push(e.byteOffset);
    this.seq.push(e.seq);
    this.counter.push(e.counter ?? Number.NaN);
    this.prefix.push(e.eventPrefix === undefined ? undefined : this.interner.get(e.eventPrefix));
    this.turn.push(turnKey);
    // The prompt a call belongs to: its prompt index, else its counted turn on the branch.
    this.prompt.push(e.promptIndex ?? e.turn ?? -1);
    this.kind.push(e.toolKind === undefined ? undefined : this.interner.get(e.toolKind));
    this.termLine.push(0);
    this.termOffset.push(0);
    this.termStatus.push(0);
    this.updates.push(0);
    if (e.toolTitle !== undefined) this.titles.set(i, keep(e.toolTitle.slice(0, 120)));
    this.status(i, e);
    return i;
  }

  /** The call added or updated last: its updates usually follow it directly (no look-up in a map of every id). */
  private lastId: string | undefined;
  private lastIndex = -1;

  /** An update for an existing call; false when the id has no tool_call yet. */
  update(e: SessionEvent & { toolCallId: string }): boolean {
    let i: number | undefined;
    if (e.toolCallId === this.lastId) i = this.lastIndex;
    else {
      i = this.index.get(e.toolCallId);
      if (i === undefined) return false;
      this.lastId = e.toolCallId;
      this.lastIndex = i;
    }
    this.updates[i]!++;
    if (!this.titles.has(i) && e.toolTitle !== undefined && this.termStatus[i] === 0)
      this.titles.set(i, keep(e.toolTitle.slice(0, 120)));
    if ((this.kind[i] === undefined || this.kind[i] === 'other') && e.toolKind !== undefined)
      this.kind[i] = this.interner.get(e.toolKind);
    this.status(i, e);
    return true;
  }

  private status(i: number, e: SessionEvent): void {
    if (this.termStatus[i] !== 0) return;
    const s = e.toolStatus === 'completed' ? 1 : e.toolStatus === 'failed' ? 2 : 0;
    if (s === 0) return;
    this.termStatus[i] = s;
    this.termLine[i] = e.line;
    this.termOffset[i] = e.byteOffset;
    if (!this.keepTitles) this.titles.delete(i);
  }

  private view(i: number): LogCall {
    const s = this.termStatus[i]!;
    const counter = this.counter[i]!;
    return {
      file: this.file,
      line: this.line[i]!,
      byteOffset: this.offset[i]!,
      id: this.ids[i]!,
      seq: this.seq[i]!,
      counter: Number.isNaN(counter) ? undefined : counter,
      eventPrefix: this.prefix[i],
      title: this.titles.get(i),
      kind: this.kind[i],
      turnKey: this.turn[i]!,
      promptIndex: this.prompt[i] === -1 ? undefined : this.prompt[i],
      terminal:
        s === 0
          ? undefined
          : { file: this.file, line: this.termLine[i]!, byteOffset: this.termOffset[i]!, status: STATUS[s] ?? '' },
      updates: this.updates[i]!,
    };
  }

  get(id: string): LogCall | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.view(i);
  }

  /** Calls in log order. */
  *values(): IterableIterator<LogCall> {
    for (let i = 0; i < this.ids.length; i++) yield this.view(i);
  }
}

/**
 * The first result of each call, kept compactly; every other result (and anything odd about the first) as an object.
 */
interface FirstResult {
  file: string;
  line: number;
  byteOffset: number;
  count: number;
}

export class PairingCollector {
  private readonly interner = new Interner();
  readonly logCalls: LogCallTable;
  /** Calls declared by assistant items, by id. */
  readonly chatCalls = new Map<string, ChatCall>();
  /** First result of each id (compact), plus every result that needs a finding or that answers no declared call. */
  readonly firstResults = new Map<string, FirstResult>();
  readonly oddResults: ChatResult[] = [];
  readonly chatTurnStarts: number[] = [];
  /** Per conversation file, the index of the last chat turn that started in it. */
  private readonly lastTurnIn = new Map<string, number>();
  /** tool_call_update lines whose id had no tool_call yet. */
  readonly strayUpdates: Array<Where & { id: string; seq: number }> = [];
  readonly turnEnds = new Map<number, TurnEnd>();
  readonly turnStarts: number[] = [];
  /** The log's last compaction checkpoint. */
  lastCheckpoint: Emission | undefined;
  dead: DeadRanges = [];
  hasLog = false;
  hasChat = false;

  private turnKey = -1;
  private chatTurn = -1;
  private preambleSeen = false;
  private markersSeen = false;
  private open: { ids: Set<string>; state: 'run' | 'lenient' } | undefined;
  private lastCallIdsThisTurn: string[] = [];
  private chatFile: string | undefined;

  private readonly keepDetail: boolean;
  private readonly toolLog: string | undefined;
  private readonly turnStartReasons: ReadonlySet<string>;
  private readonly preamble: RegExp | undefined;

  /**
   * `dialect`: the agent's pairing rules (which log records tool calls, how turns start). `keepDetail`: keep every
   * title and argument string (for commands that show them; costs memory).
   */
  constructor(dialect: PairingDialect, options: { keepDetail?: boolean } = {}) {
    this.keepDetail = options.keepDetail ?? false;
    this.toolLog = dialect.toolLog;
    this.turnStartReasons = dialect.turnStartReasons ?? new Set();
    this.preamble = dialect.preamble;
    this.logCalls = new LogCallTable(this.interner, this.keepDetail, dialect.toolLog ?? '');
  }

  event(e: SessionEvent): void {
    if (this.toolLog === undefined || e.file !== this.toolLog) return;
    this.hasLog = true;
    if (e.opensTurn) {
      this.turnKey = e.seq;
      this.turnStarts.push(e.seq);
    }
    if (e.kind === 'turn_completed')
      this.turnEnds.set(this.turnKey, {
        file: e.file,
        line: e.line,
        byteOffset: e.byteOffset,
        stopReason: e.stopReason,
      });
    if (e.kind === 'compaction_checkpoint')
      this.lastCheckpoint = { seq: e.seq, counter: e.counter, eventPrefix: e.eventPrefix };
    if (e.toolCallId === undefined) return;
    const call = e as SessionEvent & { toolCallId: string };
    if (e.kind === 'tool_call') {
      if (!this.logCalls.update(call)) this.logCalls.add(call, this.turnKey);
    } else if (e.kind === 'tool_update' && !this.logCalls.update(call)) {
      this.strayUpdates.push({
        file: e.file,
        line: e.line,
        byteOffset: e.byteOffset,
        id: keep(e.toolCallId),
        seq: e.seq,
      });
    }
  }

  logEnd(dead: DeadRanges | undefined): void {
    this.dead = dead ?? [];
  }

  /** A later chat turn started in the call's conversation file: the session went on after it. */
  turnsAfter(call: ChatCall): boolean {
    return (this.lastTurnIn.get(call.file) ?? -1) > call.turn;
  }

  /**
   * Conversation items in file order. A format with several conversation files (a transcript and its
   * sub-agents') sends each file's items in one run.
   */
  chat(c: ChatItem): void {
    if (c.file !== this.chatFile) {
      // Each file is its own conversation: a run of results never continues into another file.
      this.chatFile = c.file;
      this.open = undefined;
      this.lastCallIdsThisTurn = [];
      this.preambleSeen = false;
      this.markersSeen = false;
    }
    this.hasChat = true;
    switch (c.type) {
      case 'user': {
        if (c.promptIndex !== undefined) this.markersSeen = true;
        const preamble =
          c.syntheticReason === undefined && this.preamble !== undefined && this.preamble.test(c.text ?? '');
        const starts =
          c.promptIndex !== undefined ||
          (c.syntheticReason !== undefined && this.turnStartReasons.has(c.syntheticReason)) ||
          (!this.markersSeen && c.syntheticReason === undefined && (this.preambleSeen || !preamble));
        if (preamble) this.preambleSeen = true;
        if (starts) {
          this.chatTurn++;
          this.chatTurnStarts.push(c.line);
          this.lastTurnIn.set(c.file, this.chatTurn);
          this.lastCallIdsThisTurn = [];
        }
        this.open = undefined;
        break;
      }
      case 'assistant': {
        // A further line of the same model response: its calls join the open run; its text does not end the turn.
        if (c.sameResponse && this.open) {
          for (const call of c.toolCalls ?? []) this.declare(c, call);
          for (const call of c.toolCalls ?? []) this.open.ids.add(call.id);
          break;
        }
        if (c.toolCalls?.length) {
          for (const call of c.toolCalls) this.declare(c, call);
          this.open = { ids: new Set(c.toolCalls.map((x) => x.id)), state: 'run' };
        } else {
          for (const id of this.lastCallIdsThisTurn) {
            const call = this.chatCalls.get(id);
            if (call) call.continuedAfter = true;
          }
          this.lastCallIdsThisTurn = [];
          this.open = undefined;
        }
        break;
      }
      case 'tool_result': {
        const id = c.toolCallId ?? '';
        const placement = this.open?.ids.has(id) ? this.open.state : 'displaced';
        const declaredBefore = this.chatCalls.has(id);
        const synthetic = c.synthetic === true;
        const first = this.firstResults.get(id);
        if (first) first.count++;
        else this.firstResults.set(keep(id), { file: c.file, line: c.line, byteOffset: c.byteOffset, count: 1 });
        if (first || placement !== 'run' || !declaredBefore || synthetic) {
          this.oddResults.push({
            file: c.file,
            line: c.line,
            byteOffset: c.byteOffset,
            id: keep(id),
            synthetic,
            placement,
            declaredBefore,
          });
        }
        break;
      }
      case 'reasoning':
      case 'backend_tool_call':
        if (this.open && !c.sameResponse) this.open.state = 'lenient';
        break;
      default:
        this.open = undefined;
    }
  }

  private declare(c: ChatItem, call: { id: string; name: string; args?: string }): void {
    if (!call.id || this.chatCalls.has(call.id)) return;
    const id = keep(call.id);
    const row: ChatCall = {
      file: c.file,
      line: c.line,
      byteOffset: c.byteOffset,
      id,
      name: this.interner.get(call.name.slice(0, 120)),
      turn: this.chatTurn,
      continuedAfter: false,
    };
    if (this.keepDetail && call.args !== undefined) row.args = keep(call.args);
    if (c.abandoned !== undefined) row.abandoned = c.abandoned;
    this.chatCalls.set(id, row);
    this.lastCallIdsThisTurn.push(id);
  }
}
