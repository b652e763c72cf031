/** XREF_CHECKPOINT_MISSING / _MISMATCH / _ORPHAN and XREF_SEGMENT_INDEX: compaction markers against their files. */
import { isFork, summaryView, type SummaryView } from '../summary-view.js';
import { defineCheck } from '../../../checks/define.js';

const TTL_DAYS = 30;

interface Marker {
  id: string;
  file?: string;
  promptIndex?: number;
  line: number;
  byteOffset: number;
  timeMs?: number;
}

export const xrefCompaction = defineCheck({
  id: 'xref-compaction',
  validate: false,
  codes: {
    XREF_CHECKPOINT_MISSING: {
      severity: 'warning',
      title: 'A compaction marker points to a checkpoint file that is not there',
      help:
        'Each compaction_checkpoint line in updates.jsonl names compaction_checkpoints/<id>.json, the full ' +
        'history before that compaction, needed to rewind across it. Legitimate misses: the file and the marker ' +
        'are separate fire-and-forget writes (a crash can leave either), TTL cleanup deletes old files ' +
        'individually, and forks by U1 binaries never copied checkpoints. Without it, Grok refuses to rewind past ' +
        'that compaction.',
    },
    XREF_CHECKPOINT_MISMATCH: {
      severity: 'warning',
      title: 'A compaction marker and its checkpoint file disagree',
      help:
        'Grok writes checkpoint_file as "compaction_checkpoints/" + checkpoint_id + ".json", and the file ' +
        'repeats the checkpoint_id and prompt_index_at_compaction of its marker. A difference means one of them ' +
        'was edited or belongs to another compaction.',
    },
    XREF_CHECKPOINT_ORPHAN: {
      severity: 'warning',
      title: 'A checkpoint file no marker refers to',
      help:
        'A compaction_checkpoints/*.json file without a compaction_checkpoint line: the process died between ' +
        'writing the file and appending its marker, or the marker line was lost (see JSONL findings). The ' +
        'compaction did not take effect on the log.',
    },
    XREF_SEGMENT_INDEX: {
      severity: 'warning',
      title: 'compaction/ segments and INDEX.md disagree',
      help:
        'In Segments mode every compaction writes compaction/segment_NNN.md and then appends a row to ' +
        'compaction/INDEX.md (not atomically). A segment without a row means a crash between the two writes; a row ' +
        'without a segment means a deleted file; the INDEX header appears once, at the top.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    let summary: SummaryView | undefined;
    const markers: Marker[] = [];
    const files = new Map<string, { id?: unknown; promptIndex?: unknown }>();
    let index: string | undefined;
    let lastTime: number | undefined;
    return {
      doc({ file, kind, value }) {
        if (kind === 'summary') summary = summaryView(value);
        if (kind === 'checkpoint' && typeof value === 'object' && value !== null) {
          const v = value as Record<string, unknown>;
          files.set(file, { id: v.checkpoint_id, promptIndex: v.prompt_index_at_compaction });
        }
        if (kind === 'compaction-index' && typeof value === 'string') index = value;
      },
      event(e) {
        if (e.file !== 'updates.jsonl') return;
        if (e.timeMs !== undefined) lastTime = Math.max(lastTime ?? 0, e.timeMs);
        if (e.kind === 'compaction_checkpoint' && e.checkpointId !== undefined) {
          markers.push({
            id: e.checkpointId,
            file: e.checkpointFile,
            promptIndex: e.promptIndex,
            line: e.line,
            byteOffset: e.byteOffset,
            timeMs: e.timeMs,
          });
        }
      },
      end() {
        const present = new Set(
          session.inventory
            .filter((x) => x.path.startsWith('compaction_checkpoints/') && x.type === 'file')
            .map((x) => x.path),
        );
        const referenced = new Set<string>();
        for (const m of markers) {
          const loc = { file: 'updates.jsonl', line: m.line, byteOffset: m.byteOffset };
          const expected = `compaction_checkpoints/${m.id}.json`;
          const target = m.file ?? expected;
          referenced.add(target);
          referenced.add(expected);
          if (m.file !== undefined && m.file !== expected) {
            ctx.emit(
              'XREF_CHECKPOINT_MISMATCH',
              { ...loc, pointer: '/params/update/checkpoint_file' },
              `checkpoint_file is ${JSON.stringify(m.file)} but Grok writes ${JSON.stringify(expected)} for ` +
                `checkpoint ${m.id}`,
              { key: m.id },
            );
          }
          if (!present.has(target)) {
            const causes: string[] = [];
            let severity: 'note' | undefined;
            if (isFork(summary)) {
              causes.push('this is a fork, and U1 fork copies never copied checkpoint files');
              severity = 'note';
            }
            const age =
              m.timeMs !== undefined && lastTime !== undefined ? (lastTime - m.timeMs) / 86_400_000 : undefined;
            if (age !== undefined && age > TTL_DAYS) {
              causes.push(
                `the marker is ${Math.floor(age)} days older than the last activity, past the default ` +
                  `cleanup_ttl_days (${TTL_DAYS}): TTL cleanup deletes such files individually`,
              );
              severity = 'note';
            }
            if (!causes.length)
              causes.push(
                'the file write and the marker are separate fire-and-forget writes, so a crash or a full disk can ' +
                  'leave the marker alone; or the file was deleted',
              );
            ctx.emit(
              'XREF_CHECKPOINT_MISSING',
              loc,
              `${target} does not exist (${causes.join('; ')}); rewinding across this compaction is impossible`,
              { key: m.id, ...(severity ? { severity } : {}) },
            );
            continue;
          }
          const f = files.get(target);
          if (!f) continue; // unparseable: reported by session-files
          if (f.id !== m.id)
            ctx.emit(
              'XREF_CHECKPOINT_MISMATCH',
              { file: target, pointer: '/checkpoint_id' },
              `the file says checkpoint_id ${JSON.stringify(f.id)} but its marker at updates.jsonl:${m.line} says ` +
                `${JSON.stringify(m.id)}`,
              { key: m.id },
            );
          if (m.promptIndex !== undefined && f.promptIndex !== m.promptIndex) {
            ctx.emit(
              'XREF_CHECKPOINT_MISMATCH',
              { file: target, pointer: '/prompt_index_at_compaction' },
              `the file says prompt_index_at_compaction ${JSON.stringify(f.promptIndex)} but its marker at ` +
                `updates.jsonl:${m.line} says ${m.promptIndex}`,
              { key: `${m.id}/pi` },
            );
          }
        }
        const log = session.inventory.find((x) => x.path === 'updates.jsonl');
        // else the markers are unknown
        const logReadable = !log || (log.type === 'file' && log.readError === undefined);
        for (const p of [...present].sort()) {
          if (!logReadable || referenced.has(p) || !p.endsWith('.json')) continue;
          const hasLog = log !== undefined;
          ctx.emit(
            'XREF_CHECKPOINT_ORPHAN',
            { file: p },
            hasLog
              ? 'no compaction_checkpoint line in updates.jsonl refers to this file: the process died between ' +
                  'writing it and appending the marker, or the marker line was lost'
              : 'there is no updates.jsonl to hold its marker',
          );
        }
        segments(
          ctx,
          session.inventory.map((x) => x.path),
          index,
        );
      },
    };
  },
});

function segments(ctx: Parameters<typeof xrefCompaction.create>[0], paths: string[], index: string | undefined): void {
  const segs = new Map<number, string>();
  for (const p of paths) {
    const m = /^compaction\/segment_(\d+)\.md$/.exec(p);
    if (m) segs.set(Number(m[1]), p);
  }
  if (index === undefined) {
    if (segs.size && paths.includes('compaction/INDEX.md') === false) {
      ctx.emit(
        'XREF_SEGMENT_INDEX',
        { file: 'compaction' },
        `${segs.size} segment file(s) but no compaction/INDEX.md: the index was never written or was deleted`,
      );
    }
    return;
  }
  const rows = new Map<number, number>();
  let headers = 0;
  let firstHeaderLine = 0;
  index.split('\n').forEach((l, i) => {
    if (l.startsWith('# Compaction Segment Index')) {
      headers++;
      if (!firstHeaderLine) firstHeaderLine = i + 1;
    }
    const m = /^\|\s*(\d+)\s*\|\s*segment_(\d+)\.md\s*\|/.exec(l);
    if (m) rows.set(Number(m[2]), i + 1);
  });
  if (headers !== 1 || firstHeaderLine !== 1) {
    ctx.emit(
      'XREF_SEGMENT_INDEX',
      { file: 'compaction/INDEX.md', line: firstHeaderLine || 1 },
      headers === 0
        ? 'the INDEX header is missing'
        : headers > 1
          ? `the INDEX header appears ${headers} times (it is written once, when the file is created)`
          : 'the INDEX header is not at the top',
    );
  }
  for (const [n, p] of [...segs].sort((a, b) => a[0] - b[0])) {
    if (!rows.has(n))
      ctx.emit(
        'XREF_SEGMENT_INDEX',
        { file: p },
        `segment ${n} has no row in compaction/INDEX.md: a crash between writing the segment and appending its row`,
        { key: String(n) },
      );
  }
  for (const [n, line] of [...rows].sort((a, b) => a[0] - b[0])) {
    if (!segs.has(n))
      ctx.emit(
        'XREF_SEGMENT_INDEX',
        { file: 'compaction/INDEX.md', line },
        `the row for segment ${n} names a file that does not exist`,
        { key: String(n) },
      );
  }
}
