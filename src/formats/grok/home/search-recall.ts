/**
 * What Grok's search index recalls of a session (home-artifacts.md §1.1): its row as a note (title, cwd, size, time),
 * its first prompt, and the rest of the text the row indexes (its later prompts, up to 100,000 characters of the
 * replies, the tool paths: search_content.rs lays them out in that order, joined by blank lines) as a second note.
 * That is what `timeline --id` shows of a session whose folder is gone, what `search` finds and SECRET_IN_HOME
 * scans. The text is handed on row by row as the index is read (never held whole); the facts of that read are kept
 * for the audit, so the judgement of the same audit does not copy the database a second time.
 */
import type { HomeCheckContext, RecalledEntry } from '../../../checks/define-home.js';
import { CONTENT_LIMIT_BYTES, readSearchDb, type SearchFacts, type SearchRow } from './search-db.js';
import type { SearchIndex } from './search-files.js';

/** The memo key of one index's facts in an audit (search-check.ts reads them through `searchFactsOf`). */
const memoKey = (ix: SearchIndex): string => `grok-search-index:${ix.rel}`;

/** The facts of an index, read once per audit (by the recall when it ran first, else here). */
export function searchFactsOf(ctx: HomeCheckContext, ix: SearchIndex): SearchFacts {
  return ctx.memo(memoKey(ix), () => readSearchDb(ctx.source, ix.rel, ix.nameOf, ctx.maxDbBytes));
}

function rowEntries(ix: SearchIndex, r: SearchRow, content: Buffer, onEntry: (e: RecalledEntry) => void): void {
  const timeMs = r.updatedAt !== undefined ? r.updatedAt * 1000 : undefined;
  const row = `session_docs row ${r.id}`;
  const at = { session: r.id, file: ix.rel, row, ...(timeMs !== undefined ? { timeMs } : {}) };
  onEntry({
    ...at,
    kind: 'note',
    text:
      `the search index's row: title ${JSON.stringify(r.title)}, cwd ${r.cwd}, ${r.contentBytes} bytes of ` +
      'indexed text (its prompts, then up to 100,000 characters of the replies, then tool paths), last ' +
      'updated at this time',
  });
  // A text cut to its last 200,000 bytes may have lost its head: then none of it is taken for the first prompt.
  const whole = content.length <= CONTENT_LIMIT_BYTES - 4;
  const end = whole ? content.indexOf('\n\n') : -1;
  const first = whole ? content.subarray(0, end < 0 ? content.length : end).toString('utf8') : '';
  if (first !== '') onEntry({ ...at, kind: 'user_prompt', text: first });
  const rest = whole ? (end < 0 ? '' : content.subarray(end + 2).toString('utf8')) : content.toString('utf8');
  if (rest.trim() !== '') onEntry({ ...at, kind: 'note', text: rest });
}

/** Each wanted row of the home's live indexes, in the index's order. */
export function recallSearch(
  ctx: HomeCheckContext,
  indexes: readonly SearchIndex[],
  wanted: (id: string) => boolean,
  onEntry: (e: RecalledEntry) => void,
): void {
  for (const ix of indexes) {
    if (ix.logsOnly || ix.kind === 'quarantine') continue;
    const onText = (r: SearchRow, content: Buffer): void => {
      if (wanted(r.id)) rowEntries(ix, r, content, onEntry);
    };
    let streamed = false;
    ctx.memo(memoKey(ix), () => {
      streamed = true;
      return readSearchDb(ctx.source, ix.rel, ix.nameOf, ctx.maxDbBytes, onText);
    });
    // The judgement read it first (its facts keep no text): the text needs a read of its own.
    if (!streamed) readSearchDb(ctx.source, ix.rel, ix.nameOf, ctx.maxDbBytes, onText);
  }
}
