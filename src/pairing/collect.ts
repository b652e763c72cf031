/**
 * Collects what tool pairing needs from the two logs, as they stream: every call and result in the
 * conversation (with where it sits relative to its call), and every tool_call / tool_call_update in the
 * authoritative log (with its turn and branch).
 *
 * Memory: one row per call id in column arrays (LogCallTable; about 100 bytes a call), titles only while a call is
 * unfinished, and full objects only for the rare results that need a finding. A session with a million tool calls
 * stays within the reader's memory bar. A format whose conversations are apart (ChatItem.conversationStart, with no
 * authoritative log) has each conversation's calls settled when the next one starts: their findings (and rows, when
 * asked for) are made then and the calls let go, so memory is that of the largest conversation.
 */
import { closesTurn, keep, type ChatItem, type DeadRanges, type SessionEvent } from '../model/events.js';
import type { ChatCall, ChatResult, TurnEnd, Where } from './call-records.js';
import { classifyConversation } from './classify.js';
import type { PairingDialect } from './dialect.js';
import type { Emission } from './emission-order.js';
import { Interner } from './interner.js';
import { clipTitle, LogCallTable } from './log-call-table.js';
import type { PairFinding, PairRow } from './pairing-result.js';
import type { FirstResult, PairingState } from './pairing-state.js';

export interface PairingOptions {
  /** Keep every title and argument string (for commands that show them; costs memory). */
  keepDetail?: boolean;
  /** Keep the rows of settled conversations for classifyPairs (default true; the audit wants findings only). */
  rows?: boolean;
  /** Where the findings of each settled conversation go as it is settled; absent: kept for classifyPairs. */
  onFindings?: (findings: PairFinding[]) => void;
}

export class PairingCollector implements PairingState {
  private readonly interner = new Interner();
  readonly logCalls: LogCallTable;
  /** Calls declared by assistant items, by id. */
  chatCalls = new Map<string, ChatCall>();
  /** First result of each id (compact), plus every result that needs a finding or that answers no declared call. */
  firstResults = new Map<string, FirstResult>();
  oddResults: ChatResult[] = [];
  /** What the conversations settled so far yielded (the rows only when asked for; findings without onFindings). */
  readonly settledRows: PairRow[] = [];
  readonly settledFindings: PairFinding[] = [];
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
  private readonly keepRows: boolean;
  private readonly onFindings: ((findings: PairFinding[]) => void) | undefined;
  private readonly dialect: PairingDialect;
  private readonly toolLog: string | undefined;
  private readonly turnStartReasons: ReadonlySet<string>;
  private readonly preamble: RegExp | undefined;

  /** `dialect`: the agent's pairing rules (which log records tool calls, how turns start). */
  constructor(dialect: PairingDialect, options: PairingOptions = {}) {
    this.keepDetail = options.keepDetail ?? false;
    this.keepRows = options.rows ?? true;
    this.onFindings = options.onFindings;
    this.dialect = dialect;
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
    if (closesTurn(e))
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
    if (c.conversationStart === true && this.toolLog === undefined) this.settle();
    if (c.file !== this.chatFile || c.conversationStart === true) {
      // Each file, and each conversation the format marks, is its own: a run of results never continues into another.
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

  /**
   * The conversation so far is over: classify its calls and results, hand on the findings (keep the rows when
   * asked), and let them go. Only without an authoritative log, whose calls span every conversation.
   */
  private settle(): void {
    if (this.chatCalls.size === 0 && this.firstResults.size === 0) return;
    const r = classifyConversation(this, this.dialect, { rows: this.keepRows });
    if (this.keepRows) for (const row of r.rows) this.settledRows.push(row);
    if (this.onFindings) this.onFindings(r.findings);
    else for (const f of r.findings) this.settledFindings.push(f);
    this.chatCalls = new Map();
    this.firstResults = new Map();
    this.oddResults = [];
  }

  private declare(c: ChatItem, call: { id: string; name: string; args?: string }): void {
    if (!call.id || this.chatCalls.has(call.id)) return;
    const id = keep(call.id);
    const row: ChatCall = {
      file: c.file,
      line: c.line,
      byteOffset: c.byteOffset,
      id,
      name: this.interner.get(clipTitle(call.name)),
      turn: this.chatTurn,
      continuedAfter: false,
    };
    if (this.keepDetail && call.args !== undefined) row.args = keep(call.args);
    if (c.abandoned !== undefined) row.abandoned = c.abandoned;
    this.chatCalls.set(id, row);
    this.lastCallIdsThisTurn.push(id);
  }
}
