/** The codes of Grok's search index check (home-artifacts.md §1.1, checks GSI-1, 2, 4, 7, 8, 9, 10; 3, 5 and 6 are
 * in search-coverage.ts). */
export const SEARCH_CODES = {
  GROK_SEARCH_ROW_WITHOUT_SESSION: {
    severity: 'warning',
    title: "A row of Grok's search index has no session directory in the home",
    help:
      'sessions/session_search.sqlite holds one row per session, and an explicit delete in Grok evicts the ' +
      "session's row. A row whose session directory is nowhere in the home (and that no relocation journal " +
      'explains) shows a session that existed when the row was written and was then removed without Grok: by ' +
      "Grok's TTL cleanup (which does not evict rows), by hand, while indexing was switched off, or the home was " +
      'copied without it. The message gives what the row still holds (title, cwd, updated_at, the length of the ' +
      'indexed text, the first prompt as a short excerpt with secrets redacted), and the `sessions` list shows it ' +
      'as gone. When the row is older than the default 30-day TTL before the newest time the indexes record, it is ' +
      "the expected leftover of the TTL cleanup and the finding is a note; the newest launch's bootstrap would " +
      'have pruned it.',
  },
  GROK_SEARCH_ROW_SURVIVED_BOOTSTRAP: {
    severity: 'warning',
    title: 'A session of the search index was deleted after its last bootstrap',
    help:
      'Each launch of Grok reindexes every session it lists and prunes the rows of the others, then records the ' +
      'time in `last_bootstrap_at`. A row without its session directory that is older than that time survived ' +
      'the prune, so the session still existed at that bootstrap: it was deleted after it, by hand, by the TTL ' +
      'cleanup of the same launch (which runs beside the bootstrap, and only reaches a session older than the ' +
      'TTL), or the clock was set wrong. The message bounds the deletion and says whether the TTL can explain it.',
  },
  GROK_SEARCH_CONTENT_HASH_MISMATCH: {
    severity: 'error',
    title: "A search index row's content_hash is not the hash of its text",
    help:
      'Grok writes every row through one function, which stores blake3 of the title, a zero byte and the indexed ' +
      'text as content_hash. A row whose stored hash differs had its title or text edited outside Grok; no ' +
      'legitimate cause is known.',
  },
  GROK_SEARCH_QUARANTINE: {
    severity: 'note',
    title: 'Grok quarantined a damaged search index',
    help:
      'When the search index is unusable (corrupt, or not a database), Grok renames it and its logs to ' +
      '`<name>.corrupt.<unix nanos>` and starts an empty one; the number dates the heal. Genuine corruption or a ' +
      'home on a network filesystem cause it. Grok never removes these files, so they hold older rows, sessions ' +
      'deleted since included: they are read as older evidence, and a row of theirs without its session is ' +
      'reported with the quarantine as its source.',
  },
  GROK_SEARCH_PER_HOST_INDEX: {
    severity: 'note',
    title: 'A per-host search index',
    help:
      'On a network filesystem Grok names its search index `session_search.h-<host>.sqlite`, one per host that ' +
      'shares the home (a $HOME on NFS). Each is read as an index of its own.',
  },
  GROK_SEARCH_SCHEMA_NEWER: {
    severity: 'note',
    title: 'The search index was written by a newer Grok',
    help:
      'Its session_search_schema_version is above 4, the version this audit knows. Grok keeps a newer index as it ' +
      'is (a newer or alpha binary shares the file); that is not an anomaly, and its rows are read as version 4 ' +
      'rows.',
  },
  GROK_SEARCH_BOOTSTRAP_UNFINISHED: {
    severity: 'note',
    title: 'A reindex of the search index was claimed and never completed',
    help:
      'Grok claims a full reindex in `bootstrap_claimed_at` (a lease of 300 seconds) and records ' +
      '`last_bootstrap_at` when it completes. A claim without a completed reindex means the process crashed or was ' +
      'killed during it, or it was running when the home was copied: a crash hint to compare with the crash ' +
      'registry and the sessions that end mid-turn.',
  },
  GROK_SEARCH_DB_UNREADABLE: {
    severity: 'warning',
    title: "Grok's search index cannot be read, or only in part",
    help:
      'The search index is read from a private copy, read-only. It is not a SQLite database, SQLite cannot open ' +
      'it, it has no session_docs table of the known shape, its integrity check fails, a -wal or -journal beside ' +
      'it is not its own, or it is larger than the cap. What it knows of sessions whose directories are gone is ' +
      'then not (or not all) judged; Grok itself would quarantine a corrupt index and start an empty one.',
  },
} as const;
