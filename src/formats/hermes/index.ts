/**
 * Hermes (Nous Research hermes-agent; formats/pi-hermes.md §2): a home `~/.hermes` with `state.db` (SQLite) and
 * `sessions/` (gateway transcripts, CLI snapshots, the gateway index), audited as one session of this tool.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import type { FormatModule, InspectTraits } from '../types.js';
import { classifyHermes, detectHermes } from './artifacts.js';
import { hermesAgreement } from './checks/agreement.js';
import { hermesDbPairing } from './checks/db-pairing.js';
import { hermesDb } from './checks/db.js';
import { hermesLineage } from './checks/lineage.js';
import { hermesPart } from './checks/part.js';
import { detectHermesFiles, detectHermesOrphan } from './detect-parts.js';
import { loadHermes, looksLikeMessage, streamHermesLog } from './load.js';
import { hermesEventText } from './normalize.js';
import { HERMES_SCHEMAS } from './schemas.js';
import { validateHermes } from './validate.js';
import { hermesToolView, HERMES_RESULT_VIEW } from './tool-view.js';
import { hermesTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => hermesToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'the conversation (the rows of state.db, or the gateway transcript sessions/<id>.jsonl)',
  orphan:
    "Hermes's compression sanitizer drops a result without its call, and a provider rejects one: the line holding " +
    'the call was lost, or lines were edited',
  duplicate: 'the conversation holds two results for one call',
  unanswered:
    'Hermes writes a result (a synthetic one when it cancels or skips the call) for every call, so the result was ' +
    'lost, or Hermes stopped while the tool ran',
  displaced: 'results follow the assistant message that made the calls, in call order',
  synthetic: 'the cancellation or skip text Hermes writes for a call it did not run',
};

const DAMAGED =
  'Opening this home with Hermes migrates state.db to its schema (adding columns on every open), checkpoints the ' +
  'write-ahead log into state.db, may "repair" a malformed database (rebuilding its schema or search tables), ' +
  'and with auto-prune on deletes and VACUUMs old sessions; the gateway skips transcript lines it cannot parse ' +
  'and rewrites the whole transcript on /retry: bundle the home first';

const INSPECT: InspectTraits = {
  resumeCommand: (id) => `hermes sessions list   # then: hermes --resume <session id> (home ${id})`,
  resumeSandbox: () =>
    'Hermes records no sandbox or approval policy with a session: approvals and YOLO mode live in memory and in ' +
    "config.yaml (command_allowlist), the terminal backend in the host's configuration",
  danglingOnResume: (n) => `On resume, ${n} call(s) have no result: ${PAIRING.unanswered}.`,
  runningSubagents: '',
  damagedOnResume: DAMAGED,
  replay: (r) => [
    `The gateway transcripts: ${r.logLines} line(s), ${r.chatItems} conversation item(s)` +
      (r.danglingCalls ? `, with ${r.danglingCalls} call(s) that have no result` : '') +
      (r.skippedLines ? ` (${r.skippedLines} damaged line(s) the gateway skips)` : '') +
      '. A resume reads state.db (rows ordered by id), not these files.',
  ],
};

export const hermes = {
  name: 'hermes',
  displayName: 'Hermes Agent',
  shortName: 'Hermes',
  homeRoots: ['.hermes'],
  sessionNoun: 'a Hermes home (state.db with sessions/, or either alone)',
  detect: detectHermes,
  detectFiles: detectHermesFiles,
  detectOrphan: detectHermesOrphan,
  classify: classifyHermes,
  load: loadHermes,
  validate: validateHermes,
  streamLog: streamHermesLog,
  jsonlShape: (kind) => (kind === 'transcript' ? looksLikeMessage : undefined),
  eventText: hermesEventText,
  transcriptView: hermesTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: hermesToolView,
  toolResults: HERMES_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text:
      "Hermes reads lines with Python's json.loads, which keeps the last value of a repeated key, as this audit " +
      'does',
  },
  damageNotes: {
    JSONL_BAD_LINE: 'the gateway skips a line it cannot parse ("Skipping corrupt line in transcript")',
    JSONL_TORN_TAIL: 'the gateway skips the torn line; the next append is glued onto it (no leading newline)',
  },
  lineage: {
    unclaimedSubagent: 'state.db links it to no parent',
    duplicateId: 'Hermes keys sessions by id in state.db: only one copy is the one it resumes',
  },
  checks: [hermesPart, hermesDb, hermesDbPairing, hermesLineage, hermesAgreement],
  schemas: HERMES_SCHEMAS,
  inspect: INSPECT,
  changePolicy: (rel) => (/(^|\/)request_dump_[^/]*\.json$/.test(rel) ? 'immutable' : 'rewritable'),
  cleanup:
    "Hermes's optional auto-prune (sessions.auto_prune) deletes ended sessions older than retention_days and " +
    '`hermes sessions delete` removes rows and transcripts',
  codeNotes: {
    JSONL_BAD_LINE: 'The Hermes gateway skips an unparseable transcript line with a warning.',
  },
  timesketchType: 'session-audit:hermes:event',
} satisfies FormatModule;
