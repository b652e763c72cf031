/**
 * The transcript of one session: the conversation as a reader wants it, in the order the timeline rebuilds. Two
 * passes: the audit (its findings, and the tool-call pairing, which says which calls never got a result), then the
 * timeline, each event's record read through the agent's `transcriptView` for the calls and results it holds.
 * Entries are handed out as they are made: only the findings (capped per code and file by the audit), the pairing's
 * fate of calls without a result and the names of calls waiting for theirs are held.
 */
import { redactText, type Redactor } from '../bundle/redact.js';
import type { CheckRun } from '../checks/define.js';
import { formatOf } from '../formats/registry.js';
import type { FormatModule, LoadLimits } from '../formats/types.js';
import type { SessionEvent } from '../model/events.js';
import type { Finding } from '../model/finding.js';
import type { FoundSession } from '../model/found.js';
import type { JsonlRecord } from '../model/records.js';
import type { ToolCallSeen, ToolResultSeen, TranscriptView } from '../model/transcript-view.js';
import type { CallFate, TranscriptAt, TranscriptEntry } from '../model/transcript.js';
import { classifyPairs } from '../pairing/classify.js';
import { PairingCollector } from '../pairing/collect.js';
import { fsSource } from '../read/source.js';
import type { TimelineEvent } from '../timeline/model.js';
import { auditSession } from './audit-session.js';
import { buildTimeline, type TimelineSource } from './timeline.js';

export interface TranscriptOptions {
  limits: LoadLimits;
  includeSubagents?: boolean;
}

/** What the timeline pass keeps of a record: the calls and results it holds, and the cwd it sets. */
interface Note {
  calls: Array<ToolCallSeen & { view: TranscriptView }>;
  results: ToolResultSeen[];
  /** The record repeats the message before it. */
  echo?: boolean;
  /** What the model said beside its calls in the same record. */
  said?: { thinking?: string; text?: string };
}

const FATES: Partial<Record<string, CallFate>> = {
  unanswered: 'interrupted',
  interrupted: 'interrupted',
  abandoned: 'abandoned',
  rewound: 'rewound',
};

/** The findings of one session's files, by file, in line order, given out as the transcript passes their lines. */
class FindingQueue {
  private readonly byFile = new Map<string, Finding[]>();
  private readonly head: Finding[] = [];

  constructor(findings: readonly Finding[]) {
    for (const f of findings) {
      if (f.location.line === undefined) this.head.push(f);
      else {
        const list = this.byFile.get(f.location.file) ?? [];
        list.push(f);
        this.byFile.set(f.location.file, list);
      }
    }
    for (const list of this.byFile.values()) list.sort((a, b) => a.location.line! - b.location.line!);
  }

  /** Findings about no line (a file, the session), said first. */
  unplaced(): Finding[] {
    return this.head.splice(0);
  }

  /** The findings of `file` at lines up to `line`, removed from the queue. */
  upTo(file: string, line: number): Finding[] {
    const list = this.byFile.get(file);
    if (!list?.length) return [];
    let n = 0;
    while (n < list.length && list[n]!.location.line! <= line) n++;
    return list.splice(0, n);
  }

  /** What is left: findings at lines the timeline never showed (a line no event came from, a file it does not read). */
  rest(): Finding[] {
    const out = [...this.byFile.values()].flat();
    this.byFile.clear();
    return out;
  }
}

const findingEntry = (f: Finding, at: TranscriptAt): TranscriptEntry => ({
  type: 'finding',
  at: { ...at, file: f.location.file, ...(f.location.line !== undefined ? { line: f.location.line } : {}) },
  code: f.code,
  severity: f.severity,
  message: f.message,
  ...(f.location.pointer ? { pointer: f.location.pointer } : {}),
});

/** The audit pass: the session's findings, and what the pairing says of each call without a result. */
function auditPass(
  found: FoundSession,
  format: FormatModule,
  limits: LoadLimits,
): {
  findings: Finding[];
  fates: Map<string, CallFate>;
  synthetic: Set<string>;
} {
  const dialect = format.pairing;
  const c = new PairingCollector(dialect, { keepDetail: false });
  const run: CheckRun = {
    event: (e) => c.event(e),
    chat: (i) => c.chat(i),
    fileEnd: (f) => {
      if (f.file === dialect.toolLog) c.logEnd(f.dead);
    },
  };
  const result = auditSession(
    fsSource(found),
    format,
    {
      command: 'audit',
      maxLineBytes: limits.maxLineBytes,
      ...(limits.maxDbBytes !== undefined ? { maxDbBytes: limits.maxDbBytes } : {}),
    },
    [run],
  );
  const fates = new Map<string, CallFate>();
  const synthetic = new Set<string>();
  for (const r of classifyPairs(c, dialect).rows) {
    const fate = FATES[r.status];
    if (fate) fates.set(r.id, fate);
    if (r.status === 'synthetic') synthetic.add(r.id);
  }
  return { findings: result.findings, fates, synthetic };
}

/** Each record read through its agent's `transcriptView`: the calls (with the cwd in force) and results it holds. */
function annotator(): (e: SessionEvent, r: JsonlRecord, t: TimelineSource) => Note | undefined {
  const cwd = new Map<string, string>();
  return (e, r, t) => {
    const tv = t.format.transcriptView;
    const v = r.value;
    const id = t.source.found.id;
    const set = tv.cwd?.(v);
    if (set !== undefined) cwd.set(id, set);
    if ((e.kind === 'user_prompt' || e.kind === 'model_text' || e.kind === 'thought') && tv.echo?.(v))
      return { calls: [], results: [], echo: true };
    if (e.kind !== 'tool_call' && e.kind !== 'tool_update') return undefined;
    const dir = cwd.get(id);
    const calls = e.kind === 'tool_call' ? tv.calls(v).map((c) => ({ ...c, view: tv.view(c.name, c.args, dir) })) : [];
    // A call's record may hold its result too (an agent that records a call with its result): asked of both kinds.
    const results = e.kind === 'tool_update' || e.kind === 'tool_call' ? tv.results(v) : [];
    const said = calls.length ? tv.said?.(v) : undefined;
    if (!calls.length && !results.length) return undefined;
    return { calls, results, ...(said && (said.text || said.thinking) ? { said } : {}) };
  };
}

const DIVIDER_KINDS = new Set(['compaction_checkpoint', 'compaction_completed', 'rewind_marker']);

/** The transcript of one found session, entry by entry (subagents nested when asked). */
export function sessionTranscript(
  found: FoundSession,
  opts: TranscriptOptions,
  emit: (e: TranscriptEntry) => void,
): void {
  const format = formatOf(found);
  const audit = auditPass(found, format, opts.limits);
  const queue = new FindingQueue(audit.findings);
  const open = (f: FoundSession): TimelineSource => ({ source: fsSource(f), format: formatOf(f) });
  const root = open(found);
  const child = opts.includeSubagents
    ? (id: string): TimelineSource | undefined => {
        const c = root.format.childSession?.(root.source, id);
        return c ? open(c) : undefined;
      }
    : undefined;
  /** The names of calls waiting for a result, and per session the rewound state shown. */
  const pending = new Map<string, string>();
  /** The last prompt or reply shown, per session: an echo of it is not shown again. */
  const lastText = new Map<string, { kind: string; echo: boolean; text: string }>();
  const shown = new Map<string, { rewound: boolean; compacted: boolean; file: string }>();
  const started = new Set<string>();

  emit({
    type: 'session',
    at: { session: found.id, depth: 0, file: '' },
    agent: format.displayName,
    path: found.display,
  });
  for (const f of queue.unplaced()) emit(findingEntry(f, { session: found.id, depth: 0, file: f.location.file }));

  const onEvent = (ev: TimelineEvent, raw?: unknown): void => {
    const note = raw as Note | undefined;
    const at: TranscriptAt = {
      session: ev.session,
      depth: ev.depth,
      file: ev.file,
      line: ev.line,
      ...(ev.time !== null ? { time: ev.time } : {}),
      ...(ev.rewound ? { rewound: true } : {}),
      ...(ev.compacted ? { compacted: true } : {}),
    };
    if (ev.depth > 0 && !started.has(ev.session)) {
      started.add(ev.session);
      const { line: _, ...head } = at;
      emit({ type: 'session', at: head, agent: '', path: ev.file, ...(ev.parent ? { parent: ev.parent } : {}) });
    }
    // Findings at earlier lines of this file (lines no event came from: a torn line, a blank one) come first.
    const here = queue.upTo(ev.file, ev.line);
    const before = here.filter((f) => f.location.line! < ev.line);
    const at_ = here.filter((f) => f.location.line === ev.line);
    for (const f of before) emit(findingEntry(f, at));
    const state = shown.get(ev.session) ?? { rewound: false, compacted: false, file: ev.file };
    shown.set(ev.session, state);
    if (ev.file !== state.file) {
      state.file = ev.file;
      emit({ type: 'divider', at, what: 'file', text: `from here on: ${ev.file}` });
    }
    if (ev.compacted !== state.compacted) {
      state.compacted = ev.compacted;
      if (ev.compacted)
        emit({
          type: 'divider',
          at,
          what: 'compacted',
          text: 'compacted: the model later saw only a summary of what follows, up to the last compaction',
        });
      // A compaction that keeps the latest events (Pi's first kept entry): the model still sees them whole.
      else if (ev.kind !== 'compaction_checkpoint')
        emit({ type: 'divider', at, what: 'live', text: 'kept: the last compaction keeps what follows whole' });
    }
    if (ev.rewound !== state.rewound) {
      state.rewound = ev.rewound;
      emit({
        type: 'divider',
        at,
        what: ev.rewound ? 'rewound' : 'live',
        text: ev.rewound
          ? 'rewound: what follows was taken off the live branch by a later rewind'
          : 'back on the live branch',
      });
    }
    if (ev.resume !== undefined) emit({ type: 'divider', at, what: 'resume', text: `resumed: ${ev.resume}` });
    entriesOf(ev, note, at, emit);
    for (const f of at_) emit(findingEntry(f, at));
  };

  function results(note: Note | undefined, at: TranscriptAt, out: (e: TranscriptEntry) => void): void {
    for (const r of note?.results ?? []) {
      const tool = pending.get(r.id) ?? '';
      pending.delete(r.id);
      const status =
        audit.synthetic.has(r.id) && (r.status === 'completed' || r.status === 'failed') ? 'placeholder' : r.status;
      out({
        type: 'result',
        at,
        id: r.id,
        tool,
        status,
        output: r.output,
        ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
      });
    }
  }

  function entriesOf(
    ev: TimelineEvent,
    note: Note | undefined,
    at: TranscriptAt,
    out: (e: TranscriptEntry) => void,
  ): void {
    if (ev.kind === 'user_prompt' || ev.kind === 'model_text' || ev.kind === 'thought') {
      // One of two records of one message (either may come first): shown once.
      const mine = { kind: ev.kind, echo: note?.echo ?? false, text: ev.text };
      const last = lastText.get(ev.session);
      lastText.set(ev.session, mine);
      if (last && last.kind === mine.kind && last.echo !== mine.echo && last.text === mine.text) {
        lastText.delete(ev.session);
        return;
      }
      out({
        type: ev.kind === 'user_prompt' ? 'prompt' : ev.kind === 'model_text' ? 'reply' : 'thinking',
        at,
        text: ev.text,
      });
      return;
    }
    switch (ev.kind) {
      case 'tool_call': {
        const calls = note?.calls ?? [];
        if (note?.said?.thinking) out({ type: 'thinking', at, text: note.said.thinking });
        if (note?.said?.text) out({ type: 'reply', at, text: note.said.text });
        if (!calls.length) {
          out({ type: 'call', at, id: ev.toolCallId ?? '', view: { kind: 'other', tool: ev.summary, args: {} } });
          return;
        }
        for (const c of calls) {
          const view = c.view;
          const fate = audit.fates.get(c.id);
          pending.set(c.id, c.name);
          out({ type: 'call', at, id: c.id, view, ...(fate && ev.depth === 0 ? { fate } : {}) });
        }
        // The record may hold the results too (an agent that records a call with its result): shown after the calls.
        results(note, at, out);
        return;
      }
      case 'tool_update':
        results(note, at, out);
        return;
      case 'subagent_spawned':
        out({ type: 'divider', at, what: 'subagent', text: ev.summary });
        return;
      case 'retry':
      case 'model_change':
      case 'compaction_failed':
        out({ type: 'notice', at, text: ev.summary });
        return;
      case 'turn_completed':
        if (/interrupt|cancel/i.test(ev.text) || ev.summary.includes('cancel'))
          out({ type: 'notice', at, text: ev.summary });
        return;
      default:
        if (ev.endsTurn) out({ type: 'notice', at, text: ev.summary });
        if (DIVIDER_KINDS.has(ev.kind))
          out({
            type: 'divider',
            at,
            what: ev.kind === 'rewind_marker' ? 'rewind' : 'compaction',
            text: ev.summary,
          });
    }
  }

  buildTimeline(root, { limits: opts.limits, annotate: annotator(), ...(child ? { child } : {}) }, onEvent);
  for (const f of queue.rest()) emit(findingEntry(f, { session: found.id, depth: 0, file: f.location.file }));
}

/** An entry with every string from the session passed through the secret detectors (`--redact`). */
export function redactEntry(e: TranscriptEntry, r: Redactor): TranscriptEntry {
  const red = (s: string): string => redactText(s, r).text;
  const deep = (v: unknown): unknown =>
    typeof v === 'string'
      ? red(v)
      : Array.isArray(v)
        ? v.map(deep)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)]))
          : v;
  return deep(e) as TranscriptEntry;
}
