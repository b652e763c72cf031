/** XREF_REWIND_TARGET and XREF_REWIND_POINTS: rewind markers against the turns they cut, and rewind_points.jsonl. */
import { defineCheck } from '../../../checks/define.js';

export const xrefRewind = defineCheck({
  id: 'xref-rewind',
  validate: false,
  codes: {
    XREF_REWIND_TARGET: {
      severity: 'error',
      title: 'A rewind marker targets a prompt the live branch does not have',
      help:
        'A rewind_marker with target_prompt_index N cuts the log at the start of the N-th counted prompt turn ' +
        "(Grok's filter_rewind_by: runs of user chunks, hostTurn echoes excluded, only promptIndex-marked runs " +
        'once one was seen). Grok refuses such a rewind live, so an out-of-range marker on disk means the turn ' +
        'count drifted (a resume recount) or the log was edited; on replay Grok keeps everything, so the rewound ' +
        'turns come back to life.',
    },
    XREF_REWIND_POINTS: {
      severity: 'warning',
      title: 'rewind_points.jsonl has duplicate, out-of-order or inconsistent points',
      help:
        'Grok appends one point per prompt at turn end, so prompt_index values are unique and rise in append ' +
        'order (the merge code guards against "corrupt/legacy file with duplicate-index lines"); each snapshot is ' +
        'keyed by its own path. A violation means a rewrite went wrong, two writers raced, or the file was edited; ' +
        '/rewind may restore the wrong file contents.',
    },
  },
  create(ctx) {
    const seen = new Map<number, number>();
    let last: { pi: number; line: number } | undefined;
    return {
      event(e) {
        if (e.kind !== 'rewind_marker' || !e.rewind) return;
        if (e.rewind.outOfRange) {
          const { target, turnsBefore } = e.rewind;
          ctx.emit(
            'XREF_REWIND_TARGET',
            { file: e.file, line: e.line, byteOffset: e.byteOffset, pointer: '/params/update/target_prompt_index' },
            `rewind to prompt ${target}, but the live branch has only ${turnsBefore} counted prompt turn(s) at ` +
              `this point: Grok treats the marker as "keep everything", so nothing is rewound on replay`,
          );
        }
      },
      record({ file, kind, record }) {
        if (kind !== 'rewind') return;
        const v = record.value as { prompt_index?: unknown; file_snapshots?: unknown; after_snapshots?: unknown };
        if (typeof v !== 'object' || v === null) return;
        const pi = v.prompt_index;
        const loc = { file, line: record.line, byteOffset: record.byteOffset };
        if (typeof pi === 'number') {
          const dup = seen.get(pi);
          if (dup !== undefined)
            ctx.emit(
              'XREF_REWIND_POINTS',
              { ...loc, pointer: '/prompt_index' },
              `a second point for prompt ${pi} (the first is at line ${dup}); Grok's merge keeps one of them`,
              { key: `dup${pi}` },
            );
          else if (last && pi < last.pi)
            ctx.emit(
              'XREF_REWIND_POINTS',
              { ...loc, pointer: '/prompt_index' },
              `prompt ${pi} comes after prompt ${last.pi} (line ${last.line}): points are appended in prompt order`,
              { key: `order${pi}` },
            );
          if (dup === undefined) seen.set(pi, record.line);
          last = { pi, line: record.line };
        }
        for (const field of ['file_snapshots', 'after_snapshots'] as const) {
          const map = v[field];
          if (typeof map !== 'object' || map === null) continue;
          for (const [key, snap] of Object.entries(map)) {
            const path = (snap as { path?: unknown } | null)?.path;
            if (typeof path === 'string' && path !== key) {
              ctx.emit(
                'XREF_REWIND_POINTS',
                { ...loc, pointer: `/${field}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/path` },
                `the snapshot keyed ${JSON.stringify(key)} says path ${JSON.stringify(path)}`,
                { key: `${field}:${key}` },
              );
            }
          }
        }
      },
    };
  },
});
