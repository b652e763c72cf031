/**
 * The commands that read sessions and report on them, as data: audit, validate, timeline, pairs, inspect, lineage,
 * merge (audit's shards combined), sessions (the list to start from), activity (what the agent did), checks (the
 * finding codes). Each `load` imports its module only when it runs.
 */
import { LINEAGE_FORMATS } from '../../report/lineage-formats.js';
import { REPORT_FORMATS } from '../../report/report-formats.js';
import { TIMELINE_FORMATS } from '../../report/timeline-formats.js';
import { TRANSCRIPT_FORMATS } from '../../report/transcript-formats.js';
import {
  BASELINE,
  NOTES,
  COLOR,
  EVENT_KIND,
  FAIL_ON,
  FORMAT_HINT,
  formatOption,
  GATING_EXITS,
  GROK_HOME,
  LIMIT,
  MAX_DB_BYTES,
  MAX_LINE_BYTES,
  OUTPUT,
  PLAIN_EXITS,
  SANDBOX_CONFIG,
  SINCE,
  UNTIL,
} from '../common-options.js';
import type { CommandSpec } from '../spec.js';
import { reportOptions, SARIF_ROOT } from './specs-report-options.js';

export const audit: CommandSpec = {
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

export const validate: CommandSpec = {
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

export const transcript: CommandSpec = {
  name: 'transcript',
  summary: 'what the agent did in one session: prompts, replies, tool calls with their results, findings inline',
  positionals: [{ name: 'session', required: true, describe: (f) => `One session: ${f.sessionNouns}.` }],
  options: [
    formatOption(TRANSCRIPT_FORMATS, 'terminal'),
    OUTPUT,
    {
      name: 'full',
      type: 'boolean',
      describe: 'Show every line of every tool output, written file and edit (by default each is cut after 12 lines).',
    },
    {
      name: 'thinking',
      type: 'boolean',
      describe: "Show the model's reasoning (by default it is folded into one line that says how long it is).",
    },
    {
      name: 'include-subagents',
      type: 'boolean',
      describe: "Nest each subagent session's transcript under the call that spawned it.",
    },
    {
      name: 'redact',
      type: 'boolean',
      describe: 'Replace the secrets the audit detects (the detectors of bundle --redact) for a copy to share.',
    },
    {
      name: 'redact-pattern',
      type: 'string',
      multiple: true,
      value: 'REGEX',
      describe: 'Redact what this regular expression matches as well (needs --redact).',
    },
    COLOR,
    MAX_LINE_BYTES,
    MAX_DB_BYTES,
    FORMAT_HINT,
    {
      name: 'id',
      type: 'string',
      value: 'ID',
      describe:
        'Pick the session by its id (or at least 4 characters that start only one) in the tree or agent home given. ' +
        "A session whose log is gone but that the home's prompt history still knows gives the prompts the history " +
        'holds, marked as recalled.',
    },
  ],
  examples: [
    ['session-audit transcript <session> | less -R', 'the conversation with its tool calls and findings, paged'],
    ['session-audit transcript <session> --format markdown --redact > t.md', 'a copy to share, secrets replaced'],
    ['session-audit transcript <session> --format html -o t.html --thinking', 'one self-contained page'],
    ['session-audit transcript <session> --format jsonl --full', 'one entry a line, streamed'],
    ['session-audit transcript ~/.claude --id 5e3c1a70', 'a session picked by its id, even one whose log is gone'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./transcript.js')).transcriptModule,
};

export const timeline: CommandSpec = {
  name: 'timeline',
  summary:
    "the authoritative timeline of one session (its agent's log in emission order): rewinds, compactions, resumes",
  positionals: [{ name: 'session', required: true, describe: (f) => `one session: ${f.sessionNouns}` }],
  options: [
    formatOption(TIMELINE_FORMATS, 'table'),
    OUTPUT,
    LIMIT,
    SINCE,
    UNTIL,
    EVENT_KIND,
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
    MAX_DB_BYTES,
    FORMAT_HINT,
    {
      name: 'id',
      type: 'string',
      value: 'ID',
      describe:
        'pick the session by its id (or at least 4 characters that start only one) in the tree or agent home ' +
        "given; a session whose log is gone but that the home's prompt history still knows gives the prompts the " +
        'history holds, each marked as recalled',
    },
  ],
  examples: [
    ['session-audit timeline <session>', 'the first 1000 events as a table fitted to the terminal'],
    ['session-audit timeline <session> --format jsonl > timeline.jsonl', 'every event with its full text, streamed'],
    ['session-audit timeline <session> --prompt 3 --include-subagents', 'one prompt turn, subagents nested'],
    ['session-audit timeline <session> --format timesketch -o t.jsonl', 'for import into Timesketch'],
    ['session-audit timeline ~/.codex --id 019cb100', 'a session picked by its id, even one whose log is gone'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./timeline.js')).timelineModule,
};

export const pairs: CommandSpec = {
  name: 'pairs',
  summary:
    'tool call ↔ result table: its arguments and turn, where each call was made and answered, and how it ended ' +
    '(answered, failed, rejected, cancelled, interrupted, a placeholder the agent wrote, …)',
  positionals: audit.positionals,
  options: [formatOption(['table', 'json'], 'table'), OUTPUT, LIMIT, COLOR, MAX_DB_BYTES, FORMAT_HINT],
  examples: [
    ['session-audit pairs <session>', 'one row per tool call; failed, interrupted and unanswered calls stand out'],
    ['session-audit pairs <root> --format json -o pairs.json', 'every call of every session, for tools'],
  ],
  exitCodes: PLAIN_EXITS,
  load: async () => (await import('./pairs.js')).pairsModule,
};

export const lineage: CommandSpec = {
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

export const inspect: CommandSpec = {
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
    MAX_DB_BYTES,
    FORMAT_HINT,
  ],
  examples: [
    ['session-audit inspect <session>', 'state, calls in flight that may mutate, the exact resume command'],
    ['session-audit inspect <session> --headless-log out.jsonl --exit-code 143', 'cross-check a CI run'],
    ['session-audit inspect <session> --fail-on never >/dev/null; echo $?', '4: not safe to resume; 0: safe'],
  ],
  exitCodes: [
    [0, 'safe to resume as far as the files tell, and no finding at or above --fail-on'],
    [1, 'safe to resume as far as the files tell, but findings at or above --fail-on'],
    [2, 'unusable arguments, paths or output (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
    [
      4,
      'not safe to resume: a call that can change files or run commands was in flight, or the agent drops damaged ' +
        'lines of the conversation (the report says which; `notSafe` in the JSON)',
    ],
  ],
  load: async () => (await import('./inspect.js')).inspectModule,
};

export const merge: CommandSpec = {
  name: 'merge',
  summary: 'combine the JSON shard reports of `audit --shard K/N` into the report of the unsharded run',
  positionals: [{ name: 'reports', required: true, variadic: true, describe: 'every shard report (1/N … N/N)' }],
  options: [formatOption(REPORT_FORMATS, 'table'), OUTPUT, FAIL_ON, BASELINE, NOTES, SARIF_ROOT, COLOR],
  examples: [
    ['session-audit audit /fleet --shard 3/16 -o shard-3.json', 'on each of 16 machines'],
    ['session-audit merge shard-*.json --format sarif -o fleet.sarif', 'once, anywhere'],
  ],
  exitCodes: GATING_EXITS,
  load: async () => (await import('./merge.js')).mergeModule,
};

export const sessions: CommandSpec = {
  name: 'sessions',
  summary: 'the list to start from: each session with its agent, project, times, prompts, calls, worst finding',
  description:
    'Each session is audited once, as `audit` audits it, and listed by start time: when it says it was created, else ' +
    'its first timed event. Prompts are the user prompts its agent counts as opening a turn; failed calls are those ' +
    'whose result or log says they failed, that were rejected or cancelled, or that were never answered.',
  positionals: [
    {
      name: 'paths',
      required: false,
      variadic: true,
      describe: (f) =>
        `${f.sessionNouns}, or trees holding them (agent homes such as ~/.codex are entered wherever they are; ` +
        "default: the agents' session homes that exist)",
    },
  ],
  options: [
    formatOption(['table', 'json', 'csv'], 'table'),
    OUTPUT,
    {
      name: 'since',
      type: 'string',
      value: 'TIME',
      describe: 'only sessions that started at or after TIME (an ISO 8601 date or date and time; epoch ms)',
    },
    {
      name: 'until',
      type: 'string',
      value: 'TIME',
      describe: 'only sessions that started at or before TIME (a date alone takes the whole day)',
    },
    {
      name: 'agent',
      type: 'string',
      multiple: true,
      value: 'FORMAT',
      describe: (f) => `only sessions of these agents (a comma-separated list works too): ${f.formatNames.join(' | ')}`,
    },
    {
      name: 'project',
      type: 'string',
      value: 'DIR',
      describe:
        'only sessions whose working directory is DIR or inside it (an absolute path), or contains DIR (anything else)',
    },
    COLOR,
  ],
  examples: [
    ['session-audit sessions', "every session in the agents' homes that exist, oldest first"],
    ['session-audit sessions /mnt/image/home/alice --since 2026-03-01', 'a mounted home, sessions started in March on'],
    ['session-audit sessions --agent codex --project /work/app --format csv -o s.csv', 'for a spreadsheet'],
  ],
  exitCodes: [
    [0, 'listed (findings do not change the exit code; use audit to gate)'],
    [2, 'unusable arguments or output, or no session found (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./sessions.js')).sessionsModule,
};

export const activity: CommandSpec = {
  name: 'activity',
  summary: 'what the agent did: commands run, files touched, tools that reach outside, calls that failed',
  description:
    'Each session is audited once, as `audit` audits it, and its tool calls are read through what its agent knows ' +
    'of its tools: a shell command is listed as a command (its command line, working directory, status and exit ' +
    'code when recorded), a file tool or a patch as the files it read, wrote, edited, created or deleted (a shell ' +
    'command is never guessed into files), a web fetch, an MCP server or a subagent as a tool that reaches outside, ' +
    'with counts. Failed calls are those whose result or log says they failed, that were rejected or cancelled, or ' +
    'that were never answered. Every entry says where it is, as file:line.',
  positionals: [
    {
      name: 'paths',
      required: false,
      variadic: true,
      describe: (f) =>
        `${f.sessionNouns}, or trees holding them (agent homes such as ~/.codex are entered wherever they are; ` +
        "default: the agents' session homes that exist)",
    },
  ],
  options: [
    formatOption(['table', 'json', 'csv'], 'table'),
    OUTPUT,
    {
      name: 'since',
      type: 'string',
      value: 'TIME',
      describe: 'only entries at or after TIME (an ISO 8601 date or date and time; epoch ms)',
    },
    {
      name: 'until',
      type: 'string',
      value: 'TIME',
      describe: 'only entries at or before TIME (a date alone takes the whole day)',
    },
    {
      name: 'agent',
      type: 'string',
      multiple: true,
      value: 'FORMAT',
      describe: (f) => `only sessions of these agents (a comma-separated list works too): ${f.formatNames.join(' | ')}`,
    },
    {
      name: 'kind',
      type: 'string',
      multiple: true,
      value: 'KIND',
      describe: 'only these parts (a comma-separated list works too): commands | files | tools | failed',
    },
    COLOR,
  ],
  examples: [
    ['session-audit activity ~/.codex/sessions', 'every command, file and failed call of every Codex session'],
    ['session-audit activity session.jsonl --kind commands,failed', 'the commands run and the calls that failed'],
    ['session-audit activity ~/.claude --since 2026-03-01 --format csv -o activity.csv', 'for a spreadsheet'],
  ],
  exitCodes: [
    [0, 'listed (findings do not change the exit code; use audit to gate)'],
    [2, 'unusable arguments or output, or no session found (one line on stderr)'],
    [3, 'an internal error of session-audit (please report it)'],
  ],
  load: async () => (await import('./activity.js')).activityModule,
};

export const checks: CommandSpec = {
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
