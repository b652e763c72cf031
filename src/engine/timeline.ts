/**
 * The authoritative timeline of a session: its log in emission order, with rewound events flagged (not
 * dropped), compaction boundaries marked, resume boundaries explained, and subagent sessions optionally nested
 * under the event that spawned them. Two streaming passes over the log: the first learns what later lines
 * decide about earlier ones (rewinds, the last compaction); the second emits.
 */
import type { FormatModule, LoadLimits } from '../formats/types.js';
import { isoTime } from '../model/safe-values.js';
import { isDead, type DeadRanges, type SessionEvent } from '../model/events.js';
import { fsSource } from '../read/source.js';
import type { SessionSource } from '../model/source.js';
import { formatOf } from '../formats/registry.js';
import type { FoundSession } from '../model/found.js';
import type { JsonlRecord } from '../model/records.js';
import { TimeAnalyzer } from '../timeline/analyze.js';
import type { TimelineEvent } from '../timeline/model.js';
import { EmissionOrderer } from '../timeline/order.js';

export interface TimelineSource {
  source: SessionSource;
  format: FormatModule;
}

export interface BuildOptions {
  limits: LoadLimits;
  /** Resolve a subagent's own session (undefined: not nested). */
  child?: (subagentId: string) => TimelineSource | undefined;
  maxDepth?: number;
  /**
   * What else an output needs of each event's raw record (the transcript: the tool calls it holds), computed as the
   * record is read and handed to `emit` with the event; undefined: nothing.
   */
  annotate?: (e: SessionEvent, r: JsonlRecord, t: TimelineSource) => unknown;
}

/** A compaction checkpoint: its seq, and the seq it keeps events from (absent: nothing before it). */
interface Checkpoint {
  seq: number;
  keptFrom?: number;
}

interface FirstPass {
  dead: DeadRanges;
  /** Per log file, its last compaction checkpoint on the live branch. */
  lastCheckpoint: Map<string, Checkpoint>;
  resumes: Map<number, string>;
}

function firstPass(t: TimelineSource, limits: LoadLimits): FirstPass {
  const artifacts = t.format.classify(t.source.inventory);
  const checkpoints = new Map<string, Checkpoint[]>();
  const resumes = new Map<number, string>();
  const rules = t.format.timeline;
  const newAnalyzer = (): TimeAnalyzer =>
    new TimeAnalyzer(rules, (f) => {
      if (f.code === 'TIME_RESUME_BOUNDARY') resumes.set(f.event.seq, f.reasons.join('; '));
    });
  let analyzer = newAnalyzer();
  const orderer = new EmissionOrderer(rules, (e) => analyzer.push(e));
  // Each log file is its own clock (a session may stream its sub-agents' logs after its own).
  let file: string | undefined;
  const end = t.format.streamLog(t.source, artifacts, limits, (e) => {
    if (file !== undefined && e.file !== file) {
      orderer.flush();
      analyzer.end();
      analyzer = newAnalyzer();
    }
    file = e.file;
    if (e.kind === 'compaction_checkpoint') {
      const list = checkpoints.get(e.file) ?? [];
      list.push(e.keptFrom !== undefined ? { seq: e.seq, keptFrom: e.keptFrom } : { seq: e.seq });
      checkpoints.set(e.file, list);
    }
    orderer.push(e);
  });
  orderer.flush();
  analyzer.end();
  const dead = end?.dead ?? [];
  // A compaction on a branch a rewind abandoned compacts nothing the model sees on the live one.
  const lastCheckpoint = new Map<string, Checkpoint>();
  for (const [file, list] of checkpoints) {
    const live = list.filter((c) => !isDead(dead, c.seq)).at(-1);
    if (live) lastCheckpoint.set(file, live);
  }
  return { dead, lastCheckpoint, resumes };
}

/** Emit the timeline of one session (and, depth-first, of its subagents); `hasLog`: it has a readable log. */
export function buildTimeline(
  t: TimelineSource,
  opts: BuildOptions,
  emit: (e: TimelineEvent, note?: unknown) => void,
  depth = 0,
  parent?: string,
  seen = new Set<string>(),
): { hasLog: boolean } {
  const id = t.source.found.id;
  if (seen.has(id)) return { hasLog: false };
  seen.add(id);
  const fp = firstPass(t, opts.limits);
  const artifacts = t.format.classify(t.source.inventory);
  const texts = new Map<number, string>();
  const notes = new Map<number, unknown>();
  // Files whose last compaction checkpoint the orderer has emitted.
  const checkpointed = new Set<string>();
  const isLastCheckpoint = (e: SessionEvent): boolean => fp.lastCheckpoint.get(e.file)?.seq === e.seq;
  /** Before the file's last checkpoint in emission order (a late-written line can follow it on disk), and not kept. */
  const isCompacted = (e: SessionEvent): boolean => {
    const cp = fp.lastCheckpoint.get(e.file);
    if (!cp || checkpointed.has(e.file) || cp.seq === e.seq) return false;
    return cp.keptFrom === undefined || e.seq < cp.keptFrom;
  };
  const toEvent = (e: SessionEvent): TimelineEvent => {
    const ev: TimelineEvent = {
      session: id,
      depth,
      file: e.file,
      line: e.line,
      byteOffset: e.byteOffset,
      time: isoTime(e.timeMs) ?? null,
      timeMs: e.timeMs ?? null,
      timeSource: e.timeSource,
      rail: e.rail,
      kind: e.kind,
      tag: e.tag,
      summary: e.summary,
      text: texts.get(e.seq) ?? e.summary,
      rewound: isDead(fp.dead, e.seq),
      compacted: isCompacted(e),
      displaced: false,
    };
    if (parent !== undefined) ev.parent = parent;
    if (e.eventId !== undefined) ev.eventId = e.eventId;
    if (e.counter !== undefined) ev.counter = e.counter;
    if (e.turn !== undefined) ev.promptIndex = e.turn;
    if (e.promptId !== undefined) ev.promptId = e.promptId;
    if (e.toolCallId !== undefined) ev.toolCallId = e.toolCallId;
    if (e.toolStatus !== undefined) ev.toolStatus = e.toolStatus;
    if (e.endsTurn) ev.endsTurn = true;
    if (e.subagentId !== undefined) ev.subagentId = e.subagentId;
    const resume = fp.resumes.get(e.seq);
    if (resume !== undefined) ev.resume = resume;
    return ev;
  };
  const displaced = new Set<number>();
  const orderer = new EmissionOrderer(
    t.format.timeline,
    (e) => {
      const ev = toEvent(e);
      if (isLastCheckpoint(e)) checkpointed.add(e.file);
      ev.displaced = displaced.has(e.seq);
      texts.delete(e.seq);
      const note = notes.get(e.seq);
      notes.delete(e.seq);
      emit(ev, note);
      if (e.kind === 'subagent_spawned' && e.subagentId !== undefined && opts.child && depth < (opts.maxDepth ?? 4)) {
        const child = opts.child(e.subagentId);
        if (child) buildTimeline(child, opts, emit, depth + 1, e.subagentId, seen);
      }
    },
    (d) => displaced.add(d.event.seq),
  );
  const end = t.format.streamLog(t.source, artifacts, opts.limits, (e: SessionEvent, r: JsonlRecord) => {
    texts.set(e.seq, t.format.eventText(e, r));
    if (opts.annotate) {
      const note = opts.annotate(e, r, t);
      if (note !== undefined) notes.set(e.seq, note);
    }
    orderer.push(e);
  });
  orderer.flush();
  return { hasLog: end !== undefined };
}

/** The timeline of one found session (with its sub-agents' sessions nested when asked), event by event. */
export function sessionTimeline(
  found: FoundSession,
  opts: { limits: LoadLimits; includeSubagents?: boolean },
  emit: (e: TimelineEvent) => void,
): void {
  const open = (f: FoundSession): TimelineSource => ({ source: fsSource(f), format: formatOf(f) });
  const root = open(found);
  const child = opts.includeSubagents
    ? (id: string): TimelineSource | undefined => {
        const c = root.format.childSession?.(root.source, id);
        return c ? open(c) : undefined;
      }
    : undefined;
  buildTimeline(root, { limits: opts.limits, ...(child ? { child } : {}) }, emit);
}
