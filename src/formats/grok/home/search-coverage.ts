/**
 * GSI-5 and GSI-6 (home-artifacts.md §1.1): the home's sessions against the rows of Grok's live search indexes
 * (the index and its per-host ones; never a quarantine). A session whose summary.json was last updated before an
 * index's last completed bootstrap, which reindexes every session it lists, but that has no row in any of them was
 * skipped (the bootstrap's 30 s timeout or an error, indexing off, a lost claim). A row whose updated_at is older
 * than the session's summary.json updated_at is behind its log: normal while Grok runs (writes are debounced by
 * 500 ms), or the process was killed before the flush. Both are notes. GSI-3: the first prompt a row holds (its
 * text's head, before the first blank line) that no user message of the session's log holds: the log was cut or
 * rewritten after the row was written (it is append-only; a rewind keeps what it rewinds), or another Grok version
 * built the row (a warning).
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';
import type { FoundSession } from '../../../model/found.js';
import type { SearchFacts, SearchRow } from './search-db.js';
import type { SearchIndex } from './search-files.js';

export type SearchCoverageCodes =
  | 'GROK_SEARCH_SESSION_NOT_INDEXED'
  | 'GROK_SEARCH_ROW_BEHIND'
  | 'GROK_SEARCH_TEXT_NOT_IN_LOG';

const norm = (t: string): string => t.replace(/\s+/g, ' ').trim();

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
  const rows = new Map<string, { rel: string; row: SearchRow }>();
  for (const { ix, db } of live) for (const r of db.rows) if (!rows.has(r.id)) rows.set(r.id, { rel: ix.rel, row: r });
  // The latest completed bootstrap of any live index (none dated after the audit's clock).
  let boot: { at: number; rel: string } | undefined;
  for (const { ix, db } of live) {
    const at = secsOf(db.meta.get('last_bootstrap_at'));
    if (at !== undefined && at <= nowS && (boot === undefined || at > boot.at)) boot = { at, rel: ix.rel };
  }
  for (const [id, found] of [...ctx.sessions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const held = rows.get(id);
    if (held?.row.firstPrompt !== undefined) textInLog(ctx, id, found, held.rel, held.row.firstPrompt);
    const ms = Math.max(...found.map((s) => Date.parse(ctx.identity?.(s)?.updatedAt ?? '')));
    if (!Number.isFinite(ms)) continue;
    const updated = Math.floor(ms / 1000);
    if (!held) {
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
    const row = { rel: held.rel, updatedAt: held.row.updatedAt };
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

/** GSI-3 on the row's first prompt: some user message of the session's log must hold it. */
function textInLog(
  ctx: HomeCheckContext<SearchCoverageCodes>,
  id: string,
  found: readonly FoundSession[],
  rel: string,
  first: string,
): void {
  const want = norm(first);
  if (want === '') return;
  let held = false;
  let readable = false;
  for (const s of found)
    readable =
      ctx.events(s, (e, _r, text) => {
        if (!held && e.kind === 'user_prompt' && norm(text()).includes(want)) held = true;
      }) || readable;
  // A log that cannot be read is the session's own finding: nothing to compare with.
  if (!readable || held) return;
  ctx.emit(
    'GROK_SEARCH_TEXT_NOT_IN_LOG',
    { file: rel, pointer: `/session_docs/${id.replace(/~/g, '~0').replace(/\//g, '~1')}/content` },
    `session ${id}: the first prompt its row in ${rel} holds ("${excerpt(first, 80)}") is in no user message ` +
      'of its updates.jsonl: the log was cut or rewritten after the row was written (Grok only appends to it, and ' +
      'a rewind keeps what it rewinds), or another Grok version built the row.',
    { key: id },
  );
}

export const SEARCH_COVERAGE_CODES = {
  GROK_SEARCH_TEXT_NOT_IN_LOG: {
    severity: 'warning',
    title: "A search index row holds a prompt the session's log does not",
    help:
      "Grok builds a session's row from its updates.jsonl: the prompts first, joined by blank lines. The head of " +
      "the row's first prompt (before its first blank line) is looked for in the user messages of the log. " +
      'Absent, the log lost text after the row was written: it was cut or rewritten (Grok only appends to it; a ' +
      'rewind marks what it rewinds and keeps it), or a fork was copied with a filter, or another Grok version ' +
      '(its extractor) built the row. The row still holds the text; the message quotes its head with secrets ' +
      'redacted.',
  },
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
