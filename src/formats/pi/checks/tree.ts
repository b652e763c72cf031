/**
 * PI_* tree checks over the entries Pi reads (formats/pi-hermes.md §1.5, §1.9): v2+ entries need an id; a parentId
 * must name an entry Pi can read (else Pi makes the entry a root and the context walk stops there); one id must not
 * name two entries (Pi keeps the last); several roots are legal (say when, and which leaf a resume continues from);
 * a compaction's first kept entry must resolve on its own path (v2+ `firstKeptEntryId`, v1 `firstKeptEntryIndex`).
 */
import { defineCheck } from '../../../checks/define.js';
import { PI_TREE_KIND } from '../load.js';
import type { PiEntry, TreeFacts } from '../tree.js';

const at = (file: string, e: PiEntry, pointer?: string) => ({
  file,
  line: e.line,
  byteOffset: e.byteOffset,
  ...(pointer !== undefined ? { pointer } : {}),
});
const what = (e: PiEntry): string => (e.role !== undefined ? `${e.type}/${e.role}` : e.type);

export const piTree = defineCheck({
  id: 'pi-tree',
  validate: true,
  codes: {
    PI_ENTRY_NO_ID: {
      severity: 'error',
      title: 'An entry of a v2+ Pi session has no id or no parentId',
      help:
        'From v2 on every entry carries `id` and `parentId` (null for a root): Pi rebuilds the conversation tree ' +
        'from them. An entry without them hangs nowhere: Pi cannot put it on any branch. Causes: an entry written by ' +
        'another tool, or a v1 file whose header was edited to a later version.',
    },
    PI_PARENT_DANGLING: {
      severity: 'error',
      title: "An entry's parentId names no entry Pi can read",
      help:
        "Pi walks parentId links from the leaf to build the model's context; a parentId that names no entry ends " +
        'the walk there (Pi makes the entry a root), and everything before it drops out of a resume. Causes: lost ' +
        'or damaged lines (the message says when the parent only survives in a line Pi cannot parse), entries ' +
        'spliced from another file, or a fork that dropped label entries without re-parenting their children ' +
        '(earendil-works/pi #5669, a warning then).',
    },
    PI_ID_COLLISION: {
      severity: 'error',
      title: 'Two entries of a Pi session share one id',
      help:
        'Pi maps each id to one entry and keeps the last, so the earlier entry is unreachable and a child of either ' +
        'is attached to the last. Byte-identical repeats are what Pi before 0.55.2 wrote when it flushed a prefix ' +
        'twice (#1672) or a migrate-then-append bug (#3930): a warning then; different entries under one id are ' +
        'spliced or forged history.',
    },
    PI_SEVERAL_ROOTS: {
      severity: 'note',
      title: 'A Pi session tree has more than one root',
      help:
        'Legal in Pi: `/tree` back to before the first message (resetLeaf), a branch summary from "root", or an ' +
        'entry whose parent is lost. The message names the roots, the leaf a resume continues from (the last entry ' +
        'in the file) and the root its path reaches: entries under the other roots are not in the context.',
    },
    PI_COMPACTION_UNRESOLVED: {
      severity: 'error',
      title: "A compaction's first kept entry does not resolve",
      help:
        'A compaction replaces the history before its first kept entry with a summary; the kept entries run from ' +
        'there to the compaction. v2+ names the entry by `firstKeptEntryId`, which must be an ancestor of the ' +
        'compaction; v1 by `firstKeptEntryIndex`, an index into the entries Pi reads (the header is 0), which must ' +
        'come before the compaction. When it does not resolve, Pi keeps none of the entries before the compaction ' +
        '(v1: the migration drops the reference), so the model sees only the summary.',
    },
  },
  create(ctx) {
    return {
      doc({ file, kind, value }) {
        if (kind !== PI_TREE_KIND) return;
        const t = value as TreeFacts;
        const version = t.version ?? 1;
        const body = t.entries.filter((e, i) => !(i === 0 && e.type === 'session') && e.type !== 'session');
        if (version < 2) {
          compactionsV1(t, (e, msg) => ctx.emit('PI_COMPACTION_UNRESOLVED', at(file, e, '/firstKeptEntryIndex'), msg));
          return;
        }
        const byId = new Map<string, PiEntry>();
        const firstOf = new Map<string, PiEntry>();
        for (const e of body) {
          if (e.id === undefined || e.parentId === undefined) {
            ctx.emit(
              'PI_ENTRY_NO_ID',
              at(file, e, e.id === undefined ? '/id' : '/parentId'),
              `a ${what(e)} entry of a v${version} file without ${e.id === undefined ? 'an id' : 'a parentId'}: ` +
                'Pi cannot place it in the tree',
            );
            if (e.id === undefined) continue;
          }
          const prev = firstOf.get(e.id);
          if (prev) {
            const same = prev.digest === e.digest;
            ctx.emit(
              'PI_ID_COLLISION',
              at(file, e, '/id'),
              `id ${JSON.stringify(e.id)} already names the entry at line ${prev.line}` +
                (same
                  ? ': an identical repeat (a prefix Pi flushed twice, #1672); Pi keeps this one'
                  : `; Pi keeps this ${what(e)} and the earlier ${what(prev)} becomes unreachable`),
              { key: e.id, ...(same ? { severity: 'warning' } : {}) },
            );
          } else firstOf.set(e.id, e);
          byId.set(e.id, e);
        }
        for (const e of body) {
          const p = e.parentId;
          if (typeof p !== 'string' || e.id === undefined) continue;
          if (p === e.id) {
            ctx.emit(
              'PI_PARENT_DANGLING',
              at(file, e, '/parentId'),
              'the entry names itself as its parent: Pi makes it a root, and the walk back from the leaf stops here',
              { key: p },
            );
            continue;
          }
          if (byId.has(p)) continue;
          const lost = t.lostIds.get(p);
          const fork = lost === undefined && t.forked;
          ctx.emit(
            'PI_PARENT_DANGLING',
            at(file, e, '/parentId'),
            `parentId ${JSON.stringify(p)} names no entry Pi can read` +
              (lost !== undefined ? ` (it is in damaged line ${lost}, which Pi cannot parse)` : '') +
              (fork
                ? ' (this file is a fork: Pi drops label entries from the copied path without re-parenting their ' +
                  'children, #5669)'
                : '') +
              ': Pi makes this entry a root, and what came before it drops out of a resume',
            { key: p, ...(fork ? { severity: 'warning' } : {}) },
          );
        }
        if (t.roots.length > 1 && t.leaf) {
          const top = t.path[0];
          const explained = t.roots.slice(1).every((r) => r.type === 'branch_summary' && r.fromId === 'root');
          const why = explained
            ? 'a branch summary from "root": /tree back to the start'
            : 'legal: /tree back to before the first message';
          ctx.emit(
            'PI_SEVERAL_ROOTS',
            at(file, t.roots[1]!, '/parentId'),
            `${t.roots.length} entries start a tree (parentId null), at lines ` +
              `${t.roots.map((r) => r.line).join(', ')} (${why}); a resume continues from the leaf at line ` +
              `${t.leaf.line} (the last entry), whose path reaches the root at line ${top?.line ?? '?'}: entries ` +
              'under the other roots are not in the context',
          );
        }
        compactionsV2(t, byId, (e, msg, severity) =>
          ctx.emit('PI_COMPACTION_UNRESOLVED', at(file, e, '/firstKeptEntryId'), msg, severity ? { severity } : {}),
        );
      },
    };
  },
});

function compactionsV1(t: TreeFacts, emit: (e: PiEntry, msg: string) => void): void {
  t.entries.forEach((e, i) => {
    if (e.type !== 'compaction') return;
    const idx = e.firstKeptEntryIndex;
    if (idx === undefined) {
      emit(e, 'a v1 compaction without firstKeptEntryIndex: nothing before it is kept');
      return;
    }
    const target = typeof idx === 'number' && Number.isInteger(idx) ? t.entries[idx] : undefined;
    if (!target || idx === 0 || target.type === 'session' || (idx as number) >= i)
      emit(
        e,
        `firstKeptEntryIndex ${JSON.stringify(idx)} names no entry before the compaction (Pi reads ` +
          `${t.entries.length} entries, the header is 0): the migration drops the reference and Pi keeps nothing ` +
          'before the summary',
      );
  });
}

function compactionsV2(
  t: TreeFacts,
  byId: ReadonlyMap<string, PiEntry>,
  emit: (e: PiEntry, msg: string, severity?: 'warning') => void,
): void {
  for (const e of t.entries) {
    if (e.type !== 'compaction') continue;
    const id = e.firstKeptEntryId;
    if (id === undefined) {
      emit(e, 'a compaction without firstKeptEntryId: Pi keeps nothing before its summary');
      continue;
    }
    const target = byId.get(id);
    if (!target) {
      emit(e, `firstKeptEntryId ${JSON.stringify(id)} names no entry Pi can read: Pi keeps nothing before the summary`);
      continue;
    }
    const ancestors = new Set<PiEntry>();
    for (let cur = e.parentId ? byId.get(e.parentId) : undefined; cur && !ancestors.has(cur); ) {
      ancestors.add(cur);
      cur = typeof cur.parentId === 'string' ? byId.get(cur.parentId) : undefined;
    }
    if (!ancestors.has(target))
      emit(
        e,
        `firstKeptEntryId ${JSON.stringify(id)} (line ${target.line}) is not an ancestor of the compaction: Pi ` +
          'keeps nothing of the branch before the summary',
        'warning',
      );
  }
}
