/**
 * The authoritative log's tool calls as they stream in: a tool_call adds a row, its tool_call_updates count on it
 * and set its terminal status. One row per call id in column arrays, titles only while a call is unfinished; read
 * back one LogCall view at a time, in log order.
 */
import { keep, type SessionEvent } from '../model/events.js';
import type { LogCall } from './call-records.js';
import type { Interner } from './interner.js';

const STATUS = ['', 'completed', 'failed'] as const;

/**
 * A tool's name or title as a call row keeps it: 120 characters at most, a cut marked `…` (what the redaction of
 * the index and the HTML page knows for a cut a secret may run on past: secrets/cut.ts).
 */
export const clipTitle = (s: string): string => (s.length > 120 ? `${s.slice(0, 119)}\u2026` : s);

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
    if (e.toolTitle !== undefined) this.titles.set(i, keep(clipTitle(e.toolTitle)));
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
      this.titles.set(i, keep(clipTitle(e.toolTitle)));
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
