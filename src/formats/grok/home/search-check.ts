/**
 * GROK_SEARCH_*: Grok's session search index judged against the home's sessions (home-artifacts.md §1.1). The
 * index is a cache built from each session's `updates.jsonl`; an explicit delete evicts the session's row, the
 * 30-day TTL cleanup does not, and each launch's bootstrap prunes the rows of sessions it no longer lists. So a row
 * whose session directory is gone shows a session that existed, with what the row still holds of it; when the
 * index's last bootstrap is after the row, the deletion came after that bootstrap. Ages are graded against the
 * newest time the home's indexes record (never the audit's clock).
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt as redacted } from '../../../checks/excerpt.js';
import { SEARCH_CODES } from './search-codes.js';
import { judgeSearchCoverage, SEARCH_COVERAGE_CODES } from './search-coverage.js';
import type { SearchFacts, SearchRow } from './search-db.js';
import { relocationOf, type SearchIndex, searchIndexes } from './search-files.js';
import { recallSearch, searchFactsOf } from './search-recall.js';

const CODES = { ...SEARCH_CODES, ...SEARCH_COVERAGE_CODES };
type Codes = keyof typeof CODES;
type Ctx = HomeCheckContext<Codes>;

/** `cleanup_ttl_days` default (persistence.rs:3007-3008). */
const TTL_DAYS = 30;
const TTL_S = TTL_DAYS * 86_400;
const SCHEMA_VERSION = 4;

const excerpt = (t: string): string => redacted(t, 80);
const iso = (s: number): string => new Date(s * 1000).toISOString();
const pointer = (id: string): string => `/session_docs/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
/** A meta value in unix seconds (a claim is `<secs>:<token>`). */
const secsOf = (v: string | undefined): number | undefined => {
  const m = v === undefined ? null : /^\s*(-?[0-9]+)/.exec(v);
  return m ? Number(m[1]) : undefined;
};

interface Read {
  ix: SearchIndex;
  db?: SearchFacts;
}

/** The newest time the indexes record that is not after the audit's clock: rows, bootstraps, quarantines' heals. */
function reference(reads: readonly Read[], nowS: number): number | undefined {
  let ref: number | undefined;
  const see = (t: number | undefined) => {
    if (t !== undefined && t <= nowS && (ref === undefined || t > ref)) ref = t;
  };
  for (const { ix, db } of reads) {
    if (ix.ns !== undefined) see(Math.floor(Number(ix.ns) / 1e9));
    see(secsOf(db?.meta.get('last_bootstrap_at')));
    for (const r of db?.rows ?? []) see(r.updatedAt);
  }
  return ref;
}

function holds(r: SearchRow): string {
  const what = [
    r.title ? `title "${excerpt(r.title)}"` : '',
    r.cwd ? `cwd ${r.cwd}` : '',
    r.updatedAt !== undefined ? `updated_at ${iso(r.updatedAt)}` : 'an updated_at that is not a time',
    `${r.contentBytes} bytes of indexed text`,
    r.firstPrompt ? `first prompt "${excerpt(r.firstPrompt)}"` : '',
  ].filter(Boolean);
  return what.join(', ');
}

function orphan(ctx: Ctx, ix: SearchIndex, db: SearchFacts, r: SearchRow, ref: number | undefined, nowS: number) {
  const boot = secsOf(db.meta.get('last_bootstrap_at'));
  const future = r.updatedAt !== undefined && r.updatedAt > nowS;
  let msg =
    `session ${r.id} has a row in ${ix.rel} but no session directory in the home; the row holds ${holds(r)}` +
    (future ? "; its updated_at is after the audit's clock (a clock set wrong, or a row written by hand)" : '');
  if (r.updatedAt !== undefined && boot !== undefined && boot > r.updatedAt && boot <= nowS) {
    const stale = r.updatedAt + TTL_S < boot;
    msg +=
      `; the index's last completed bootstrap (last_bootstrap_at ${iso(boot)}) came after it and did not prune ` +
      `it, so the session still existed then: it was deleted after ${iso(boot)}` +
      (stale
        ? `, and it was already older than the default ${TTL_DAYS}-day TTL at that bootstrap, so the TTL cleanup ` +
          'that runs beside it may have deleted it'
        : `, and it was not yet older than the default ${TTL_DAYS}-day TTL then, so that launch's TTL cleanup did ` +
          'not delete it');
    ctx.emit('GROK_SEARCH_ROW_SURVIVED_BOOTSTRAP', { file: ix.rel, pointer: pointer(r.id) }, msg, { key: r.id });
  } else {
    const old = r.updatedAt !== undefined && ref !== undefined && r.updatedAt + TTL_S < ref;
    msg +=
      ref === undefined || r.updatedAt === undefined
        ? ''
        : old
          ? `; it is older than the default ${TTL_DAYS}-day TTL before ${iso(ref)}, the newest time the home's ` +
            "search indexes record: what Grok's TTL cleanup leaves (it does not evict rows)"
          : `; it is not older than the default ${TTL_DAYS}-day TTL before ${iso(ref)}, the newest time the ` +
            "home's search indexes record: not Grok's TTL cleanup (deleted by hand, indexing switched off, or the " +
            'home copied without it)';
    ctx.emit('GROK_SEARCH_ROW_WITHOUT_SESSION', { file: ix.rel, pointer: pointer(r.id) }, msg, {
      key: r.id,
      ...(old ? { severity: 'note' as const } : {}),
    });
  }
}

function gone(ctx: Ctx, ix: SearchIndex, r: SearchRow): void {
  const shown = r.title || r.firstPrompt;
  ctx.gone({
    id: r.id,
    source: ix.rel,
    prompts: r.firstPrompt ? 1 : 0,
    ...(r.updatedAt !== undefined && r.updatedAt > 0 ? { lastAt: iso(r.updatedAt) } : {}),
    ...(r.cwd ? { cwd: r.cwd } : {}),
    ...(shown ? { excerpt: excerpt(shown) } : {}),
  });
}

/** Say what makes the index unreadable, or read only in part; true when nothing of it can be judged. */
function unreadable(ctx: Ctx, ix: SearchIndex, db: SearchFacts): boolean {
  const at = { file: ix.rel };
  if (db.error !== undefined) {
    ctx.emit('GROK_SEARCH_DB_UNREADABLE', at, `${ix.rel}: ${db.error}`);
    return true;
  }
  if (db.integrity.length)
    ctx.emit(
      'GROK_SEARCH_DB_UNREADABLE',
      at,
      `${ix.rel}: PRAGMA integrity_check reports ${db.integrity.length} problem(s) (${db.integrity[0]!}); ` +
        'what it could read is judged',
    );
  for (const [log, why] of [
    ['-wal', db.walForeign],
    ['-journal', db.journalForeign],
  ] as const)
    if (why?.length)
      ctx.emit(
        'GROK_SEARCH_DB_UNREADABLE',
        { file: ix.nameOf(log) },
        `${ix.nameOf(log)} is not the database's own (${why.join('; ')}): the database was read without it`,
      );
  if (db.truncated)
    ctx.emit('GROK_SEARCH_DB_UNREADABLE', at, `${ix.rel}: only its first ${db.rows.length} rows were judged`);
  return false;
}

function metaNotes(ctx: Ctx, ix: SearchIndex, db: SearchFacts): void {
  const version = db.meta.get('session_search_schema_version');
  if (version !== undefined && /^[0-9]+$/.test(version.trim()) && Number(version) > SCHEMA_VERSION)
    ctx.emit(
      'GROK_SEARCH_SCHEMA_NEWER',
      { file: ix.rel, pointer: '/meta/session_search_schema_version' },
      `${ix.rel} has schema version ${version.trim()}, newer than the ${SCHEMA_VERSION} this audit knows: a newer ` +
        'Grok binary shares the file; its rows are read as version 4 rows',
    );
  const claim = db.meta.get('bootstrap_claimed_at');
  if (claim !== undefined && !db.meta.has('last_bootstrap_at')) {
    const at = secsOf(claim);
    ctx.emit(
      'GROK_SEARCH_BOOTSTRAP_UNFINISHED',
      { file: ix.rel, pointer: '/meta/bootstrap_claimed_at' },
      `${ix.rel}: a reindex was claimed${at !== undefined ? ` at ${iso(at)}` : ''} and has never completed ` +
        '(bootstrap_claimed_at without last_bootstrap_at): the process crashed or was killed mid-reindex, or one ' +
        'was running when the home was copied',
    );
  }
}

function fileNotes(ctx: Ctx, reads: readonly Read[]): void {
  for (const { ix, db } of reads) {
    if (ix.kind === 'host')
      ctx.emit(
        'GROK_SEARCH_PER_HOST_INDEX',
        { file: ix.rel },
        `${ix.rel} is the search index of host "${ix.host!}" (Grok names it so when the home is on a network ` +
          'filesystem): read as an index of its own',
      );
    if (ix.kind !== 'quarantine') continue;
    const healed = Number(ix.ns) / 1e6;
    const when = Number.isFinite(healed) && healed > 0 ? ` on ${new Date(healed).toISOString()}` : '';
    const read = ix.logsOnly
      ? 'only its logs are there (no quarantined database)'
      : db?.error !== undefined
        ? `it cannot be read (${db.error})`
        : `${db?.rows.length ?? 0} row(s) read from it as older evidence`;
    ctx.emit(
      'GROK_SEARCH_QUARANTINE',
      { file: ix.rel },
      `${ix.files.join(', ')}: Grok found the search index unusable and set it aside${when} (the name's ` +
        `${ix.ns!} is the heal's time in nanoseconds), then started an empty one; ${read}`,
    );
  }
}

export const grokSearchIndex = defineHomeCheck({
  id: 'grok-search-index',
  codes: CODES,
  run(ctx) {
    const paths = ctx.source.inventory.filter((e) => e.type !== 'dir').map((e) => e.path);
    const indexes = searchIndexes(paths);
    if (!indexes.length) return;
    const nowS = Math.floor(ctx.now / 1000);
    const reads: Read[] = indexes.map((ix) => (ix.logsOnly ? { ix } : { ix, db: searchFactsOf(ctx, ix) }));
    fileNotes(ctx, reads);
    const ref = reference(reads, nowS);
    const reported = new Set<string>();
    // The live and per-host indexes first: a quarantine's row of a session they already report adds its source.
    for (const { ix, db } of [...reads].sort((a, b) => +(a.ix.kind === 'quarantine') - +(b.ix.kind === 'quarantine'))) {
      if (!db) continue;
      const live = ix.kind !== 'quarantine';
      if (live && unreadable(ctx, ix, db)) continue;
      if (db.error !== undefined) continue;
      if (live) metaNotes(ctx, ix, db);
      for (const r of db.rows) {
        if (live && r.hash !== r.storedHash.trim())
          ctx.emit(
            'GROK_SEARCH_CONTENT_HASH_MISMATCH',
            { file: ix.rel, pointer: `${pointer(r.id)}/content_hash` },
            `session ${r.id}: ${ix.rel} records content_hash ${r.storedHash.slice(0, 16)}…, but blake3 of its ` +
              `title and text is ${r.hash.slice(0, 16)}…: the row was edited outside Grok`,
            { key: r.id },
          );
        if (ctx.sessions.has(r.id) || ctx.source.entry(relocationOf(r.id))) continue;
        if (live || !reported.has(r.id)) orphan(ctx, ix, db, r, ref, nowS);
        reported.add(r.id);
        gone(ctx, ix, r);
      }
    }
    const live = reads.flatMap(({ ix, db }) =>
      ix.kind !== 'quarantine' && db && db.error === undefined ? [{ ix, db }] : [],
    );
    judgeSearchCoverage(ctx, live);
  },
  recall(ctx, wanted, onEntry) {
    const paths = ctx.source.inventory.filter((e) => e.type !== 'dir').map((e) => e.path);
    recallSearch(ctx, searchIndexes(paths), wanted, onEntry);
  },
});
