/**
 * CLAUDE_*: the uuid/parentUuid chain Claude Code rebuilds a conversation from (leaf → root walks,
 * formats/codex-claude.md §2.3, §2.5): parents that are not there, extra roots with no compact boundary to explain
 * them, summaries whose leaf resolves nowhere, and sub-agent transcripts whose session transcript is gone.
 */
import { defineCheck } from '../../../checks/define.js';
import type { DamageCode } from '../../../model/records.js';
import { SESSION_CONTEXT_KIND, type SessionContext } from '../load.js';

/** Damage after which a line's records are not all there: the line may have held a summary's leaf. */
const LOSSY: ReadonlySet<DamageCode> = new Set<DamageCode>([
  'JSONL_TORN_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_MERGED_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_OVERSIZED_LINE',
  'JSONL_TOO_DEEP',
]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Ref {
  file: string;
  line: number;
  byteOffset: number;
  pointer: string;
  target: string;
}

export const claudeTranscript = defineCheck({
  id: 'claude-transcript',
  validate: true,
  codes: {
    CLAUDE_PARENT_MISSING: {
      severity: 'error',
      title: "A record's parentUuid names a record that is not in the session",
      help:
        'Claude Code rebuilds the conversation by walking parentUuid links from the latest record back to a ' +
        'root; a link to a uuid that no record of the session carries ends the walk there, and everything before ' +
        'it drops out of what a resume shows the model. Causes: lines lost from the middle of the transcript (a ' +
        'crash during a batched write, an edit), a transcript cut at the front, or records spliced in from another ' +
        "session. Sub-agent transcripts link into the session's transcript (resolved there); a compact boundary's " +
        'logicalParentUuid is checked the same way.',
    },
    CLAUDE_MULTIPLE_ROOTS: {
      severity: 'warning',
      title: 'A transcript has more than one root and no compact boundary to explain it',
      help:
        'A transcript has one root (parentUuid null) unless a compaction started a new chain (a system ' +
        'compact_boundary record, whose logicalParentUuid bridges the break). Another root means the chain was ' +
        'broken: lines concatenated from another transcript, or a writer that lost track of the last uuid. A ' +
        'resume follows only the chain of the latest record.',
    },
    CLAUDE_SUMMARY_LEAF_UNRESOLVED: {
      severity: 'note',
      title: 'A summary record names a leaf uuid that is not in this session',
      help:
        'Claude Code writes {"type":"summary","leafUuid":…} records to title a conversation by its last ' +
        'message; it also writes summaries of OTHER sessions of the project into a transcript (cross-session ' +
        'summaries), so a leaf that is not in the session is normal and not reported. It is reported only when the ' +
        'session lost lines (torn, unparseable or merged lines the reader could not take whole): the leaf may have ' +
        'been one of them, and resume anchoring fails if the leaf resolves nowhere in the project.',
    },
    CLAUDE_TRANSCRIPT_MISSING: {
      severity: 'warning',
      title: 'Sub-agent transcripts whose session transcript is missing',
      help:
        'A session folder `<session>/subagents/` holds sub-agent transcripts but `<session>.jsonl`, the ' +
        "session's own transcript, is not next to it: deleted (cleanup, a partial copy), or never captured. The " +
        "sub-agents' records are audited; their links into the session (parentUuid of copied context, the Task " +
        'calls that spawned them) cannot be resolved. A sub-agent transcript audited alone resolves its links in ' +
        '`../../<session>.jsonl`; when that is not there, this one finding replaces a CLAUDE_PARENT_MISSING per ' +
        'link. A session folder holding only `tool-results/` (the large tool outputs moved out of the transcript) ' +
        'without `<session>.jsonl` is the same loss: the outputs are here, the calls they answer are not.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const uuids = new Set<string>();
    const pending: Ref[] = [];
    const roots = new Map<string, number>();
    /** Where each file's second root is (the one reported). */
    const rootsAt = new Map<string, { file: string; line: number; byteOffset: number }>();
    const boundaries = new Set<string>();
    const summaries: Ref[] = [];
    /** The first line the session lost (a damaged line whose records the reader could not take whole). */
    let lost: { file: string; line: number; n: number } | undefined;
    const hasTranscript = [...session.artifacts.values()].some((a) => a.kind === 'transcript');
    /** Set when the session is one sub-agent transcript audited alone: its session's transcript, two folders up. */
    let context: (SessionContext & { file: string }) | undefined;
    return {
      doc({ file, kind, value }) {
        if (kind === SESSION_CONTEXT_KIND) context = { ...(value as SessionContext), file };
      },
      damage({ file, kind, damage }) {
        if ((kind !== 'transcript' && kind !== 'subagent') || !LOSSY.has(damage.code)) return;
        if (lost) lost.n++;
        else lost = { file, line: damage.line, n: 1 };
      },
      record({ file, kind, record }) {
        if (kind !== 'transcript' && kind !== 'subagent') return;
        const v = record.value;
        if (!isObj(v)) return;
        const where = { file, line: record.line, byteOffset: record.byteOffset };
        if (v.type === 'summary' && typeof v.leafUuid === 'string')
          summaries.push({ ...where, pointer: '/leafUuid', target: v.leafUuid });
        if (typeof v.uuid !== 'string') return;
        uuids.add(v.uuid);
        const boundary = v.type === 'system' && v.subtype === 'compact_boundary';
        if (boundary) boundaries.add(file);
        if (typeof v.parentUuid === 'string') {
          if (!uuids.has(v.parentUuid)) pending.push({ ...where, pointer: '/parentUuid', target: v.parentUuid });
        } else if (v.parentUuid === null || v.parentUuid === undefined) {
          if (boundary) {
            if (typeof v.logicalParentUuid === 'string' && !uuids.has(v.logicalParentUuid))
              pending.push({ ...where, pointer: '/logicalParentUuid', target: v.logicalParentUuid });
          } else if (v.type !== 'attachment') {
            const n = (roots.get(file) ?? 0) + 1;
            roots.set(file, n);
            if (n === 2) rootsAt.set(file, where);
          }
        }
      },
      end() {
        let unresolvedInSubagents = 0;
        for (const ref of pending) {
          if (uuids.has(ref.target) || context?.uuids?.has(ref.target)) continue;
          const sub = context !== undefined || session.artifacts.get(ref.file)?.kind === 'subagent';
          if (sub && (context ? context.uuids === undefined : !hasTranscript)) {
            unresolvedInSubagents++;
            continue;
          }
          ctx.emit(
            'CLAUDE_PARENT_MISSING',
            { file: ref.file, line: ref.line, byteOffset: ref.byteOffset, pointer: ref.pointer },
            `${ref.pointer.slice(1)} ${JSON.stringify(ref.target)} names no record of this ` +
              `session${sub ? ' (nor of its transcript)' : ''}: Claude Code's walk back from the latest record ` +
              `stops here, and what came before drops out of a resume`,
            { key: ref.target },
          );
        }
        for (const [file, n] of roots) {
          if (n < 2 || boundaries.has(file)) continue;
          const w = rootsAt.get(file)!;
          ctx.emit(
            'CLAUDE_MULTIPLE_ROOTS',
            { ...w, pointer: '/parentUuid' },
            `${n} records start a chain (parentUuid null) and no compact boundary explains it; this is the second: ` +
              `a resume follows only the chain of the latest record`,
          );
        }
        // A leaf elsewhere is a summary of another session of the project (Claude Code writes those here too):
        // worth saying only when the session lost lines the leaf may have been on.
        for (const s of lost ? summaries : []) {
          if (uuids.has(s.target) || context?.uuids?.has(s.target)) continue;
          ctx.emit(
            'CLAUDE_SUMMARY_LEAF_UNRESOLVED',
            { file: s.file, line: s.line, byteOffset: s.byteOffset, pointer: s.pointer },
            `leafUuid ${JSON.stringify(s.target)} is not a record of this session, which lost ${lost!.n} line(s) ` +
              `(the first: ${lost!.file}:${lost!.line}): a summary of one of them, or of another session of the ` +
              'project (Claude Code writes those here too)',
            { key: s.target },
          );
        }
        if (context && context.uuids === undefined) {
          ctx.emit(
            'CLAUDE_TRANSCRIPT_MISSING',
            { file: context.file },
            `a sub-agent transcript audited alone: its session's transcript ${context.transcript} ` +
              (context.error ? `cannot be read (${context.error})` : 'is not there') +
              (unresolvedInSubagents
                ? `, so ${unresolvedInSubagents} parentUuid link(s) into it cannot be resolved`
                : '; no link of this file needs it'),
            unresolvedInSubagents ? {} : { severity: 'note' },
          );
        }
        const subagents = [...session.artifacts.values()].filter((a) => a.kind === 'subagent');
        const outputs = [...session.artifacts.values()].filter((a) => a.kind === 'tool-result');
        if (!hasTranscript && !subagents.length && outputs.length) {
          const id = session.found.id;
          ctx.emit(
            'CLAUDE_TRANSCRIPT_MISSING',
            { file: `${id}.jsonl` },
            `${outputs.length} tool output(s) under ${id}/tool-results/ but no ${id}.jsonl next to the folder: the ` +
              "session's own transcript, which holds the calls they answer, is missing",
          );
        }
        if (!hasTranscript && subagents.length) {
          const id = session.found.id;
          ctx.emit(
            'CLAUDE_TRANSCRIPT_MISSING',
            { file: `${id}.jsonl` },
            `${subagents.length} sub-agent transcript(s) under ${id}/subagents/ but no ${id}.jsonl next to the ` +
              "folder: the session's own transcript is missing" +
              (unresolvedInSubagents ? `; ${unresolvedInSubagents} parentUuid link(s) into it cannot be resolved` : ''),
          );
        }
      },
    };
  },
});
