/**
 * GSI-5 and GSI-6 (home-artifacts.md §1.1): the home's sessions against the rows of Grok's live search indexes
 * (the index and its per-host ones; never a quarantine). A session whose summary.json was last updated before an
 * index's last completed bootstrap, which reindexes every session it lists, but that has no row in any of them was
 * skipped (the bootstrap's 30 s timeout or an error, indexing off, a lost claim). A row whose updated_at is older
 * than the session's summary.json updated_at is behind its log: normal while Grok runs (writes are debounced by
 * 500 ms), or the process was killed before the flush. Both are notes.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import type { SearchFacts } from './search-db.js';
import type { SearchIndex } from './search-files.js';

export type SearchCoverageCodes = 'GROK_SEARCH_SESSION_NOT_INDEXED' | 'GROK_SEARCH_ROW_BEHIND';

const iso = (s: number): string => new Date(s * 1000).toISOString();
const secsOf = (v: string | undefined): number | undefined => {
  const m = v === undefined ? null : /^\s*(-?[0-9]+)/.exec(v);
  return m ? Number(m[1]) : undefined;
};

export function judgeSearchCoverage(
  ctx: HomeCheckContext<SearchCoverageCodes>,
  live: ReadonlyArray<{ ix: SearchIndex; db: SearchFacts }>,
): void {
  if (!live.length) return;
  const nowS = Math.floor(ctx.now / 1000);
  const rows = new Map<string, { rel: string; updatedAt?: number }>();
  for (const { ix, db } of live)
    for (const r of db.rows)
      if (!rows.has(r.id))
        rows.set(r.id, { rel: ix.rel, ...(r.updatedAt !== undefined ? { updatedAt: r.updatedAt } : {}) });
  // The latest completed bootstrap of any live index (none dated after the audit's clock).
  let boot: { at: number; rel: string } | undefined;
  for (const { ix, db } of live) {
    const at = secsOf(db.meta.get('last_bootstrap_at'));
    if (at !== undefined && at <= nowS && (boot === undefined || at > boot.at)) boot = { at, rel: ix.rel };
  }
  for (const [id, found] of [...ctx.sessions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const ms = Math.max(...found.map((s) => Date.parse(ctx.identity?.(s)?.updatedAt ?? '')));
    if (!Number.isFinite(ms)) continue;
    const updated = Math.floor(ms / 1000);
    const row = rows.get(id);
    if (!row) {
      if (boot !== undefined && updated < boot.at)
        ctx.emit(
          'GROK_SEARCH_SESSION_NOT_INDEXED',
          { file: boot.rel },
          `session ${id}: its summary.json was last updated at ${iso(updated)}, before the last completed ` +
            `bootstrap of ${boot.rel} (${iso(boot.at)}), which reindexes every session, but no live search index ` +
            'has a row of it: the bootstrap skipped it (its 30 s timeout, an error), indexing was off, or the row ' +
            'was removed by hand.',
          { key: id },
        );
      continue;
    }
    if (row.updatedAt !== undefined && row.updatedAt < updated)
      ctx.emit(
        'GROK_SEARCH_ROW_BEHIND',
        { file: row.rel },
        `session ${id}: its row in ${row.rel} was updated at ${iso(row.updatedAt)}, its summary.json later, at ` +
          `${iso(updated)}: the index is behind the log (Grok writes it 500 ms after a change, so the process ` +
          'ended before it did, or the session was written by something else).',
        { key: id },
      );
  }
}

export const SEARCH_COVERAGE_CODES = {
  GROK_SEARCH_SESSION_NOT_INDEXED: {
    severity: 'note',
    title: "A session older than the search index's last bootstrap has no row in it",
    help:
      'Each launch of Grok reindexes every session it lists and records the time in `last_bootstrap_at`. A ' +
      'session whose summary.json was last updated before that time but that no live index has a row of was ' +
      'skipped by the bootstrap (a session over 30 MiB still gets a title-only row, so not for its size: the ' +
      "bootstrap's 30 s timeout or an error), or indexing was switched off, or its row was removed by hand.",
  },
  GROK_SEARCH_ROW_BEHIND: {
    severity: 'note',
    title: "A search index row is older than its session's summary.json",
    help:
      "Grok rewrites a session's row 500 ms after the session changes (debounced), with the summary's " +
      'updated_at. A row older than the summary.json beside the log: the process was killed before that write, ' +
      'the index was restored from an older copy, or the session was written without Grok. The row then lacks ' +
      "the session's latest text; the log is the truth.",
  },
} as const;
