/**
 * The commands that keep and prove evidence, as data: bundle (a BagIt bag, from live paths or the store), verify
 * (a bag or the store), archive (the evidence store), search (its index). Each `load` imports its module only when
 * it runs.
 */
import {
  COLOR,
  EVENT_KIND,
  FAIL_ON,
  FORMAT_HINT,
  formatOption,
  LIMIT,
  OUTPUT,
  SINCE,
  UNTIL,
} from '../common-options.js';
import type { CommandSpec, OptionSpec } from '../spec.js';

const STORE_FROM: OptionSpec = {
  name: 'from-store',
  type: 'string',
  value: 'DIR',
  describe: 'bundle a capture kept by `archive` in this store (with --session) instead of live paths',
};
const STORE_SESSION: OptionSpec = {
  name: 'session',
  type: 'string',
  value: 'ID',
  describe:
    "with --from-store: the session's id, its store key (when several sessions share an id), or a prefix of " +
    'either that starts only one',
};
const STORE_AT: OptionSpec = {
  name: 'at',
  type: 'number',
  value: 'CAPTURE',
  describe: "with --from-store: the capture's number (default: the session's latest capture holding its files)",
};

export const bundle: CommandSpec = {
  name: 'bundle',
  summary: 'a tamper-evident BagIt evidence bag: payload byte for byte, manifests, report, timelines, custody',
  positionals: [
    {
      name: 'paths',
      required: false,
      variadic: true,
      describe: 'session directories or files, cwd groups or sessions roots (none with --from-store)',
    },
  ],
  options: [
    {
      name: 'output',
      alias: 'o',
      type: 'string',
      value: 'BAG',
      describe: 'the bag (required): BAG.zip, BAG.tar.gz / .tgz, BAG.tar, or a new directory',
    },
    {
      name: 'redact',
      type: 'boolean',
      describe: 'redact secrets inside the payload for sharing (digests of the originals go in the custody statement)',
    },
    {
      name: 'redact-pattern',
      type: 'string',
      multiple: true,
      value: 'REGEX',
      describe: 'an extra regular expression to redact (needs --redact)',
    },
    {
      name: 'sign-key',
      type: 'string',
      value: 'PEM',
      describe: 'an Ed25519 private key: sign the custody statement as a DSSE envelope',
    },
    { name: 'key-id', type: 'string', value: 'ID', describe: 'the keyid recorded with the signature' },
    {
      name: 'bagging-date',
      type: 'string',
      value: 'YYYY-MM-DD',
      describe:
        'the Bagging-Date (YYYY-MM-DD), also the date of every archive entry (default: SOURCE_DATE_EPOCH, else ' +
        'the day the bag is made, UTC)',
    },
    { name: 'force', type: 'boolean', describe: 'replace an existing output bag' },
    STORE_FROM,
    STORE_SESSION,
    STORE_AT,
    COLOR,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit bundle <session> -o incident-42.zip', 'a bag any BagIt validator accepts'],
    ['session-audit bundle <root> -o share.tgz --redact', 'secrets replaced, originals provable'],
    [
      'session-audit bundle --from-store ~/evidence --session <id> -o s.zip',
      'the latest capture of a session kept by `archive` (even one the agent deleted)',
    ],
  ],
  exitCodes: [
    [0, 'the bag was written'],
    [2, 'unusable arguments, paths or output, or the evidence changed while it was read (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./bundle.js')).bundleModule,
};

export const verify: CommandSpec = {
  name: 'verify',
  summary: 'verify a BagIt bag (directory, zip, tar, tar.gz): manifests, completeness, Payload-Oxum, custody',
  positionals: [
    {
      name: 'bag',
      required: false,
      describe: 'a bag directory or archive (read in place, never extracted); none with --store',
    },
  ],
  options: [
    {
      name: 'store',
      type: 'string',
      value: 'DIR',
      describe:
        'verify an evidence store made by `archive` instead of a bag: every stored piece re-hashed, every file ' +
        'version rebuilt, the chain of capture records checked',
    },
    {
      name: 'key',
      type: 'string',
      value: 'PEM',
      describe: 'an Ed25519 public key the custody signature must verify with',
    },
    {
      name: 'against',
      type: 'string',
      value: 'LIVE',
      describe: 'the live session directory (or its group or root): check its logs only grew since the capture',
    },
    formatOption(['table', 'json'], 'table'),
    OUTPUT,
    FAIL_ON,
    COLOR,
  ],
  examples: [
    ['session-audit verify incident-42.zip --key alice.pub.pem', 'every digest, and the signature'],
    ['session-audit verify incident-42.zip --against <live session>', 'did the logs only grow since the capture?'],
    ['session-audit verify --store ~/evidence --key alice.pub.pem', 'the whole store, and every record signature'],
  ],
  exitCodes: [
    [
      0,
      'the bag is consistent (no finding at or above --fail-on; warnings are repeated on stderr); the last line ' +
        'says what that proves: unsigned, only that it is intact since it was made; signed and checked, who signed it',
    ],
    [1, 'findings at or above --fail-on: the bag is not consistent, or it and the live session differ'],
    [2, 'unusable arguments, paths or output (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./verify.js')).verifyModule,
};

export const archive: CommandSpec = {
  name: 'archive',
  summary: 'keep every session in an evidence store: each version once, proof that logs only grew, deletions kept',
  positionals: [
    {
      name: 'roots',
      required: false,
      variadic: true,
      describe: (f) =>
        `sessions roots, cwd groups or ${f.sessionNouns} (default: the agents' session homes that exist)`,
    },
  ],
  options: [
    {
      name: 'store',
      type: 'string',
      value: 'DIR',
      describe: 'the store (required): made on first use; content-addressed pieces and a chain of capture records',
    },
    {
      name: 'sign-key',
      type: 'string',
      value: 'PEM',
      describe: 'an Ed25519 private key: each capture record is written as a DSSE envelope',
    },
    { name: 'key-id', type: 'string', value: 'ID', describe: 'the keyid recorded with each signature' },
    {
      name: 'rehash',
      type: 'boolean',
      describe: 'read every file again, even one whose inode, size, mtime and ctime are those of the version captured',
    },
    {
      name: 'reindex',
      type: 'boolean',
      describe: "rebuild the store's search index (index.sqlite) from the capture records alone; captures nothing",
    },
    {
      name: 'index',
      type: 'boolean',
      offSwitch: true,
      describe:
        'capture only, and leave the search index behind: search then refuses to answer until a later run ' +
        '(which indexes what this one captured) or archive --reindex has brought it up to date',
    },
    {
      name: 'acknowledge-gap',
      type: 'string',
      value: 'WHY',
      describe:
        'go on past records found missing or altered at the end of the chain: a gap record naming what is missing, ' +
        'who acknowledged it and why is written into the chain first (verify --store reports it for good)',
    },
    COLOR,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit archive --store ~/evidence', "every agent's sessions under the home directory, incrementally"],
    ['session-audit archive ~/.claude/projects --store /srv/evidence --sign-key archivist.pem', 'signed records'],
    ['session-audit archive --reindex --store ~/evidence', 'the index rebuilt from the stored captures'],
    [
      'session-audit archive --store ~/evidence --acknowledge-gap "restored from the 11-30 backup"',
      'record a gap verify --store found, and go on',
    ],
  ],
  exitCodes: [
    [0, 'the store is up to date'],
    [
      1,
      'archived, and not all is kept: a log that only grows was rewritten or deleted in the source, a file or ' +
        'directory could not be read, or the index could not be brought up to date (listed on stderr)',
    ],
    [
      2,
      "unusable arguments or store (a symlink, another user's, writable by others, a gap at the end of its chain " +
        'not acknowledged), or another run holds the store (one line on stderr)',
    ],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./archive.js')).archiveModule,
};

export const captures: CommandSpec = {
  name: 'captures',
  summary: 'list what an evidence store holds: each session and its captures, with what each one recorded',
  positionals: [],
  options: [
    { name: 'store', type: 'string', value: 'DIR', describe: 'the store made by `archive` (required)' },
    {
      name: 'session',
      type: 'string',
      value: 'ID',
      describe: 'only this session: its id, its store key, or a prefix of either that starts only one',
    },
    formatOption(['table', 'json'], 'table'),
    COLOR,
  ],
  examples: [
    ['session-audit captures --store ~/evidence', 'every session and its captures, read from the records'],
    ['session-audit captures --store ~/evidence --session 019c8a70', 'one session, by a unique id prefix'],
  ],
  exitCodes: [
    [0, 'listed'],
    [2, 'unusable arguments or store, or a session id that matches none or several (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./captures.js')).capturesModule,
};

export const search: CommandSpec = {
  name: 'search',
  summary: "search an evidence store's index: prompts, model text, tool calls and outputs, with their evidence",
  positionals: [
    {
      name: 'query',
      required: true,
      describe:
        'an SQLite FTS5 query: words (all must match), "a phrase", OR, NOT, prefix*; text with punctuation (a path, ' +
        'a-b) in double quotes',
    },
  ],
  options: [
    { name: 'store', type: 'string', value: 'DIR', describe: 'the store made by `archive` (required)' },
    {
      name: 'agent',
      type: 'string',
      value: 'FORMAT',
      describe: 'only sessions of this agent (grok, codex, claude, …)',
    },
    {
      name: 'session',
      type: 'string',
      value: 'ID',
      describe: 'only this session: its id, its store key, or a prefix of either that starts only one',
    },
    SINCE,
    UNTIL,
    EVENT_KIND,
    { name: 'tool', type: 'string', value: 'NAME', describe: 'only calls of this tool and their outputs' },
    { name: 'code', type: 'string', value: 'CODE', describe: 'only sessions with a finding of this code' },
    { name: 'mutating', type: 'boolean', describe: 'only tool calls that may change files or run commands' },
    {
      name: 'allow-stale',
      type: 'boolean',
      describe:
        'answer from an index that does not cover every capture record (a warning says which), instead of refusing',
    },
    formatOption(['table', 'json', 'jsonl'], 'table'),
    { ...LIMIT, describe: 'hits shown (default 100; 0: all); a line says when there are more' },
    COLOR,
  ],
  examples: [
    ['session-audit search \'"terraform destroy"\' --store ~/evidence', 'which session ran it, where, when'],
    ['session-audit search \'"prod.env"\' --store ~/evidence --mutating', 'tool calls that may have changed it'],
    ['session-audit search rm --store ~/evidence --kind tool_call --agent claude --since 2026-11-01', 'filtered'],
  ],
  exitCodes: [
    [0, 'at least one hit'],
    [1, 'no hit'],
    [
      2,
      'unusable arguments or store, no index, an index behind the records (without --allow-stale), or a query FTS5 ' +
        'rejects (one line on stderr)',
    ],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./search.js')).searchModule,
};
