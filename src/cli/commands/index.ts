/**
 * Every command as data (see ../spec.ts): what it takes, examples, exit codes. Nothing here loads engine code: a
 * command's module is imported only when that command runs, so `--version`, `--help` and `checks` start fast.
 */
import { EVENT_KINDS } from '../../model/events.js';
import { LINEAGE_FORMATS } from '../../report/lineage-formats.js';
import { REPORT_FORMATS } from '../../report/report-formats.js';
import { TIMELINE_FORMATS } from '../../report/timeline-formats.js';
import {
  BASELINE,
  COLOR,
  FAIL_ON,
  FORMAT_HINT,
  formatOption,
  GATING_EXITS,
  GROK_HOME,
  LIMIT,
  MAX_LINE_BYTES,
  OUTPUT,
  PLAIN_EXITS,
  SANDBOX_CONFIG,
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
  describe: "with --from-store: the session's id (or its store key when several sessions share an id)",
};
const STORE_AT: OptionSpec = {
  name: 'at',
  type: 'number',
  value: 'CAPTURE',
  describe: "with --from-store: the capture's number (default: the session's latest capture holding its files)",
};

const SARIF_ROOT: OptionSpec = {
  name: 'sarif-root',
  type: 'string',
  value: 'DIR',
  describe:
    'SARIF only: artifact URIs are relative to DIR (uriBaseId %SRCROOT%), e.g. the repository checkout (default: ' +
    'the current directory when every input is under it, else each input gets its own base id)',
};

const reportOptions = (command: 'audit' | 'validate'): OptionSpec[] => [
  formatOption(REPORT_FORMATS, 'table'),
  OUTPUT,
  FAIL_ON,
  {
    name: 'ignore',
    type: 'string',
    multiple: true,
    value: 'CODE',
    describe: 'leave out findings with this code (or a comma-separated list); the report counts what it hid',
  },
  {
    name: 'severity',
    type: 'string',
    multiple: true,
    value: 'CODE=LEVEL',
    describe: 'override the severity of a code: CODE=error|warning|note',
  },
  BASELINE,
  {
    name: 'config',
    type: 'string',
    value: 'FILE',
    describe:
      'the config file (default: ./.session-audit.json when present and not inside an input: evidence never ' +
      'configures its own audit)',
  },
  {
    name: 'jobs',
    alias: 'j',
    type: 'number',
    value: 'N',
    describe: 'sessions audited in N threads (this one and N-1 workers; default 1); the output is identical',
  },
  SARIF_ROOT,
  COLOR,
  MAX_LINE_BYTES,
  FORMAT_HINT,
  ...(command === 'audit'
    ? [
        SANDBOX_CONFIG,
        {
          name: 'earlier-capture',
          type: 'string',
          value: 'DIR',
          describe:
            'an earlier capture of the same sessions (a copied session or root): compare recorded sandbox profiles',
        } satisfies OptionSpec,
        {
          name: 'against',
          type: 'string',
          value: 'DIR',
          describe: '',
          deprecated: { use: '--earlier-capture' },
        } satisfies OptionSpec,
        GROK_HOME,
        {
          name: 'shard',
          type: 'string',
          value: 'K/N',
          describe: 'audit only shard K of N (chosen by session id) and write a JSON shard report for `merge`',
        } satisfies OptionSpec,
      ]
    : []),
];

const audit: CommandSpec = {
  name: 'audit',
  summary: 'full audit of session directories, cwd groups or whole sessions roots',
  positionals: [
    { name: 'paths', required: true, variadic: true, describe: (f) => `${f.sessionNouns}, or trees holding them` },
  ],
  options: reportOptions('audit'),
  examples: [
    ['session-audit audit ~/.grok/sessions', 'every session of a sessions root, as tables (worst first)'],
    [
      'session-audit audit artifacts/sessions --format sarif -o session-audit.sarif --fail-on never',
      'SARIF for GitHub code scanning, URIs relative to the current directory',
    ],
    [
      'session-audit audit artifacts/sessions --format markdown --fail-on never >> "$GITHUB_STEP_SUMMARY"',
      'a job summary: what was found by severity, then the gate result',
    ],
    [
      'session-audit audit artifacts/sessions --baseline known.json',
      'gate only on findings that are not in an earlier JSON report',
    ],
  ],
  exitCodes: GATING_EXITS,
  load: async () => (await import('./audit.js')).auditModule('audit'),
};

const validate: CommandSpec = {
  name: 'validate',
  summary: 'schema-level checks only: JSONL damage, record schemas, loadability',
  positionals: audit.positionals,
  options: reportOptions('validate'),
  examples: [
    ['session-audit validate ~/.codex/sessions', 'every rollout checked line by line against its schema'],
    ['session-audit validate run/ --format junit -o validate.xml', 'JUnit XML for a CI test widget'],
  ],
  exitCodes: GATING_EXITS,
  load: async () => (await import('./audit.js')).auditModule('validate'),
};

const timeline: CommandSpec = {
  name: 'timeline',
  summary:
    "the authoritative timeline of one session (its agent's log in emission order): rewinds, compactions, resumes",
  positionals: [{ name: 'session', required: true, describe: (f) => `one session: ${f.sessionNouns}` }],
  options: [
    formatOption(TIMELINE_FORMATS, 'table'),
    OUTPUT,
    LIMIT,
    { name: 'since', type: 'string', value: 'TIME', describe: 'only events at or after TIME (ISO 8601 or epoch ms)' },
    { name: 'until', type: 'string', value: 'TIME', describe: 'only events at or before TIME' },
    {
      name: 'kind',
      type: 'string',
      multiple: true,
      value: 'KIND',
      describe: `only events of these kinds (comma-separated or repeated): ${EVENT_KINDS.join(', ')}`,
    },
    { name: 'prompt', type: 'number', value: 'N', describe: 'only events of prompt turn N (0-based)' },
    {
      name: 'include-subagents',
      type: 'boolean',
      describe: "nest each subagent session's timeline under the event that spawned it",
    },
    {
      name: 'live',
      type: 'boolean',
      describe: 'only what the model saw: no rewound or compacted events, conversation kinds only',
    },
    COLOR,
    MAX_LINE_BYTES,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit timeline <session>', 'the first 1000 events as a table fitted to the terminal'],
    ['session-audit timeline <session> --format jsonl > timeline.jsonl', 'every event with its full text, streamed'],
    ['session-audit timeline <session> --prompt 3 --include-subagents', 'one prompt turn, subagents nested'],
    ['session-audit timeline <session> --format timesketch -o t.jsonl', 'for import into Timesketch'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./timeline.js')).timelineModule,
};

const pairs: CommandSpec = {
  name: 'pairs',
  summary: 'tool call ↔ result table: where each call was made and answered, and its status',
  positionals: audit.positionals,
  options: [formatOption(['table', 'json'], 'table'), OUTPUT, LIMIT, COLOR, FORMAT_HINT],
  examples: [
    ['session-audit pairs <session>', 'one row per tool call; interrupted and unanswered calls stand out'],
    ['session-audit pairs <root> --format json -o pairs.json', 'every call of every session, for tools'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./pairs.js')).pairsModule,
};

const lineage: CommandSpec = {
  name: 'lineage',
  summary: 'the fork / subagent / worktree graph of a sessions root, with sandbox profiles and widened edges',
  positionals: [{ name: 'paths', required: true, variadic: true, describe: 'sessions roots (or grok homes)' }],
  options: [formatOption(LINEAGE_FORMATS, 'table'), OUTPUT, SANDBOX_CONFIG, GROK_HOME, COLOR, FORMAT_HINT],
  examples: [
    ['session-audit lineage ~/.grok/sessions', 'the tree, with ▲WIDENED and ▼DROPPED edges marked'],
    ['session-audit lineage ~/.grok/sessions --format dot | dot -Tsvg > lineage.svg', 'a Graphviz drawing'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./lineage.js')).lineageModule,
};

const inspect: CommandSpec = {
  name: 'inspect',
  summary:
    'before resuming an interrupted session: how it stopped, calls in flight, running subagents, the resume command',
  positionals: [{ name: 'session', required: true, describe: (f) => `one session: ${f.sessionNouns}` }],
  options: [
    formatOption(['text', 'json'], 'text'),
    OUTPUT,
    { ...FAIL_ON, describe: 'exit 1 when an audit finding is at or above LEVEL: error | warning | note | never' },
    {
      name: 'headless-log',
      type: 'string',
      value: 'FILE',
      describe: 'what `grok -p --output-format streaming-json|json` printed for this run, to cross-check',
    },
    {
      name: 'exit-code',
      type: 'number',
      value: 'N',
      describe: 'the exit code of that `grok -p` run (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 1 error)',
    },
    COLOR,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit inspect <session>', 'state, calls in flight that may mutate, the exact resume command'],
    ['session-audit inspect <session> --headless-log out.jsonl --exit-code 143', 'cross-check a CI run'],
  ],
  exitCodes: GATING_EXITS,
  load: async () => (await import('./inspect.js')).inspectModule,
};

const merge: CommandSpec = {
  name: 'merge',
  summary: 'combine the JSON shard reports of `audit --shard K/N` into the report of the unsharded run',
  positionals: [{ name: 'reports', required: true, variadic: true, describe: 'every shard report (1/N … N/N)' }],
  options: [formatOption(REPORT_FORMATS, 'table'), OUTPUT, FAIL_ON, BASELINE, SARIF_ROOT, COLOR],
  examples: [
    ['session-audit audit /fleet --shard 3/16 -o shard-3.json', 'on each of 16 machines'],
    ['session-audit merge shard-*.json --format sarif -o fleet.sarif', 'once, anywhere'],
  ],
  exitCodes: GATING_EXITS,
  load: async () => (await import('./merge.js')).mergeModule,
};

const bundle: CommandSpec = {
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
      describe: 'Bagging-Date (default: SOURCE_DATE_EPOCH, else the latest time the evidence records)',
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

const verify: CommandSpec = {
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
    [0, 'the bag is valid (no finding at or above --fail-on; warnings are repeated on stderr)'],
    [1, 'findings at or above --fail-on: the bag is not valid, or the live logs did not only grow'],
    [2, 'unusable arguments, paths or output (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./verify.js')).verifyModule,
};

const archive: CommandSpec = {
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
    COLOR,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit archive --store ~/evidence', "every agent's sessions under the home directory, incrementally"],
    ['session-audit archive ~/.claude/projects --store /srv/evidence --sign-key archivist.pem', 'signed records'],
    ['session-audit archive --reindex --store ~/evidence', 'the index rebuilt from the stored captures'],
  ],
  exitCodes: [
    [0, 'the store is up to date'],
    [1, 'archived, and a log that only grows was rewritten or deleted in the source (listed on stderr)'],
    [2, 'unusable arguments or store, or another run holds the store (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./archive.js')).archiveModule,
};

const search: CommandSpec = {
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
    { name: 'session', type: 'string', value: 'ID', describe: 'only this session (its id or store key)' },
    { name: 'since', type: 'string', value: 'TIME', describe: 'only events at or after this ISO 8601 time' },
    { name: 'until', type: 'string', value: 'TIME', describe: 'only events before this ISO 8601 time' },
    {
      name: 'kind',
      type: 'string',
      multiple: true,
      value: 'KIND',
      describe: `only events of this kind (or a comma-separated list): ${EVENT_KINDS.join(', ')}`,
    },
    { name: 'tool', type: 'string', value: 'NAME', describe: 'only calls of this tool and their outputs' },
    { name: 'code', type: 'string', value: 'CODE', describe: 'only sessions with a finding of this code' },
    { name: 'mutating', type: 'boolean', describe: 'only tool calls that may change files or run commands' },
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
    [2, 'unusable arguments or store, no index, or a query FTS5 rejects (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./search.js')).searchModule,
};

const checks: CommandSpec = {
  name: 'checks',
  summary: 'list every finding code, or explain one',
  positionals: [{ name: 'code', required: false, describe: 'a finding code, e.g. JSONL_TORN_TAIL' }],
  options: [formatOption(['table', 'json'], 'table'), COLOR],
  examples: [
    ['session-audit checks', 'every code with its severity and meaning'],
    ['session-audit checks JSONL_MERGED_LINE', 'one code: what it means, its causes, what to do'],
  ],
  exitCodes: [
    [0, 'done'],
    [2, 'an unknown code or option (one line on stderr)'],
  ],
  load: async () => (await import('./checks.js')).checksModule,
};

export const COMMANDS: readonly CommandSpec[] = [
  audit,
  validate,
  timeline,
  pairs,
  inspect,
  lineage,
  merge,
  bundle,
  verify,
  archive,
  search,
  checks,
];
