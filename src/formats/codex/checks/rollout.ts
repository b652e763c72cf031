/**
 * CODEX_*: what Codex's own rollout reader insists on (formats/codex-claude.md §1.5, §1.7): the first record is the
 * session_meta, paginated rollouts number every line (ordinal) without gaps or repeats, and a rollout is not kept
 * both plain and zstd-compressed.
 */
import type { JsonlRecord } from '../../../model/records.js';
import { defineCheck } from '../../../checks/define.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const at = (file: string, r: JsonlRecord) => ({ file, line: r.line, byteOffset: r.byteOffset });

export const codexRollout = defineCheck({
  id: 'codex-rollout',
  validate: true,
  codes: {
    CODEX_FIRST_LINE_NOT_META: {
      severity: 'error',
      title: 'A Codex rollout does not start with its session_meta',
      help:
        'Codex writes the session_meta line first (identity: id, cwd, originator, fork and parent links) and ' +
        'its reader requires it: "rollout at … does not start with session metadata" (rollout/src/ordinal.rs ' +
        "read_history_mode); resume and `codex resume` listing fail, and the session's identity and lineage are " +
        'unknown. Causes: the head of the file was lost or cut (a truncated copy, a damaged first line), or lines ' +
        'were spliced in front. The audit still reads the rest.',
    },
    CODEX_ORDINAL_GAP: {
      severity: 'error',
      title: 'A paginated rollout skips ordinals',
      help:
        'In a paginated rollout (session_meta history_mode "paginated") every line carries an `ordinal` that ' +
        'rises by one. A gap means lines were lost (a torn or dropped write, lines cut out); the message says ' +
        'whether damaged lines sit in between. Codex pages history by ordinal, so the missing lines are missing ' +
        'from what resume replays.',
    },
    CODEX_ORDINAL_REPEAT: {
      severity: 'error',
      title: 'A paginated rollout repeats or goes back in its ordinals',
      help:
        'An ordinal that is not higher than the one before: a line written twice (a retried append), two ' +
        'writers on one file, or lines spliced in from another copy. Pages keyed by ordinal then disagree with the ' +
        'file.',
    },
    CODEX_ORDINAL_MISSING: {
      severity: 'error',
      title: 'A line of a paginated rollout has no ordinal',
      help:
        'A paginated rollout numbers every line; Codex refuses to resume one whose last valid record has no ' +
        'ordinal ("final paginated rollout record … is missing an ordinal", rollout/src/ordinal.rs; ' +
        'openai/codex#45150). An unnumbered line in the middle was written by a build or tool that does not ' +
        'paginate.',
    },
    CODEX_PLAIN_AND_COMPRESSED: {
      severity: 'warning',
      title: 'A rollout exists both plain and zstd-compressed',
      help:
        'Codex may store a rollout as `….jsonl.zst`; when the plain `….jsonl` also exists the plain file wins ' +
        'and the compressed one is hidden (rollout/src/compression.rs), and a resume decompresses before ' +
        'appending. Both present means a compression or decompression step was interrupted, or a copy was restored ' +
        'next to the live file: the two may disagree. This tool cannot decompress zstd (Node 20 has none), so the ' +
        '.zst is inventoried and hashed, not compared: decompress it (`zstd -d`) and audit or diff the result.',
    },
    CODEX_COMPRESSED_NOT_READ: {
      severity: 'note',
      title: 'A rollout is stored zstd-compressed only and was not read',
      help:
        'The session exists only as `….jsonl.zst`. This tool cannot decompress zstd (Node 20 has no zstd), so ' +
        'the file is inventoried and hashed (chain of custody) but its records are not audited. Decompress it ' +
        '(`zstd -d rollout-….jsonl.zst`) into another directory and audit the .jsonl.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const state = new Map<
      string,
      {
        first?: number;
        damagedBefore: number[];
        paginated: boolean;
        prev?: { ordinal: number; line: number };
        damaged: number[];
      }
    >();
    const of = (file: string) => {
      let s = state.get(file);
      if (!s) state.set(file, (s = { damagedBefore: [], paginated: false, damaged: [] }));
      return s;
    };
    return {
      damage({ file, kind, damage }) {
        if (kind !== 'rollout' || damage.code === 'JSONL_BLANK_LINE' || damage.code === 'JSONL_CRLF') return;
        const s = of(file);
        if (s.first === undefined) s.damagedBefore.push(damage.line);
        s.damaged.push(damage.line);
      },
      record({ file, kind, record }) {
        if (kind !== 'rollout') return;
        const s = of(file);
        const v = isObj(record.value) ? record.value : {};
        if (s.first === undefined) {
          s.first = record.line;
          const meta = v.type === 'session_meta';
          if (meta && isObj(v.payload) && v.payload.history_mode === 'paginated') s.paginated = true;
          if (!meta || s.damagedBefore.length) {
            const lost = s.damagedBefore.length
              ? `; line(s) ${s.damagedBefore.join(', ')} before it are ` +
                `damaged${meta ? '' : ' (the session_meta may be lost there)'}`
              : '';
            const tag = JSON.stringify(typeof v.type === 'string' ? v.type : '?');
            const what = meta ? 'the session_meta, but not on line 1' : `a ${tag} line, not the session_meta`;
            ctx.emit(
              'CODEX_FIRST_LINE_NOT_META',
              at(file, record),
              `the first record (line ${record.line}) is ${what}${lost}: ` +
                'Codex refuses to resume a rollout that does not start with its session metadata',
            );
          }
        }
        const o = v.ordinal;
        const has = typeof o === 'number' && Number.isSafeInteger(o);
        if (has) s.paginated = true;
        if (!s.paginated) return;
        if (!has) {
          ctx.emit(
            'CODEX_ORDINAL_MISSING',
            { ...at(file, record), pointer: '/ordinal' },
            `line ${record.line} of a paginated rollout carries no ` +
              `ordinal${s.prev ? ` (the last one was ${s.prev.ordinal} at line ${s.prev.line})` : ''}: written by ` +
              `a build or tool that does not paginate`,
          );
          return;
        }
        const n = o as number;
        if (s.prev) {
          if (n <= s.prev.ordinal) {
            ctx.emit(
              'CODEX_ORDINAL_REPEAT',
              { ...at(file, record), pointer: '/ordinal' },
              `ordinal ${n} ${n === s.prev.ordinal ? 'repeats' : 'comes after'} ${s.prev.ordinal} (line ` +
                `${s.prev.line}): a line written twice, two writers, or lines spliced in from another copy`,
            );
          } else if (n > s.prev.ordinal + 1) {
            const between = s.damaged.filter((l) => l > s.prev!.line && l < record.line);
            const missing = n - s.prev.ordinal - 1;
            ctx.emit(
              'CODEX_ORDINAL_GAP',
              { ...at(file, record), pointer: '/ordinal' },
              `ordinal ${n} follows ${s.prev.ordinal} (line ${s.prev.line}): ${missing} line(s) numbered ` +
                `${s.prev.ordinal + 1}${missing > 1 ? `–${n - 1}` : ''} are missing` +
                (between.length
                  ? `; damaged line(s) ${between.join(', ')} sit in between (their records are lost)`
                  : ''),
            );
          }
        }
        s.prev = { ordinal: n, line: record.line };
      },
      fileEnd({ file, kind }) {
        if (kind !== 'rollout') return;
        const s = state.get(file);
        if (s?.first === undefined)
          ctx.emit(
            'CODEX_FIRST_LINE_NOT_META',
            { file, line: 1 },
            'the rollout holds no readable record, so no session_meta: Codex cannot load it',
          );
      },
      end() {
        const plain = new Set([...session.artifacts.values()].filter((a) => a.kind === 'rollout').map((a) => a.path));
        for (const a of session.artifacts.values()) {
          if (a.kind !== 'rollout-zst') continue;
          const entry = session.inventory.find((e) => e.path === a.path);
          const size = entry?.size ?? 0;
          if (plain.has(a.path.slice(0, -4))) {
            ctx.emit(
              'CODEX_PLAIN_AND_COMPRESSED',
              { file: a.path },
              `both ${a.path.slice(0, -4)} and this compressed copy (${size} bytes) exist: Codex reads the plain ` +
                `file and hides this one; it is hashed but not decompressed (no zstd in Node 20), so whether the ` +
                `two agree is not checked`,
            );
          } else {
            ctx.emit(
              'CODEX_COMPRESSED_NOT_READ',
              { file: a.path },
              `the rollout is stored zstd-compressed only (${size} bytes): inventoried and hashed, not audited (no ` +
                `zstd in Node 20); decompress it elsewhere with \`zstd -d\` and audit the .jsonl`,
            );
          }
        }
      },
    };
  },
});
