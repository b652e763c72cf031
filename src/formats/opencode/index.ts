/**
 * opencode (anomalyco/opencode, formerly sst/opencode; formats/opencode.md): a data directory
 * `$XDG_DATA_HOME/opencode` with its SQLite database (E2 from 1.2.0, E3 from 1.16.0) and the JSON trees of the
 * older eras (E0 to 0.5.x, E1 0.6 to 1.1.x), audited as one session of this tool. Its rows are updated in place: a
 * tool part is one row that goes pending → running → completed | error, so pairing reads terminal states only.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import type { FormatModule } from '../types.js';
import { classifyOpencode, detectOpencode, detectOpencodeFiles } from './artifacts.js';
import { opencodeDb } from './checks/db.js';
import { opencodePermission } from './checks/permission.js';
import { opencodeRows } from './checks/rows.js';
import { opencodeInspect } from './inspect.js';
import { loadOpencode, streamOpencodeLog } from './load.js';
import { opencodeEventText } from './normalize.js';
import { OPENCODE_SCHEMAS } from './schemas.js';
import { opencodeToolView, OPENCODE_RESULT_VIEW } from './tool-view.js';
import { opencodeTranscriptView } from './transcript-view.js';
import { validateOpencode } from './validate.js';

const PAIRING: PairingDialect = {
  mutating: (name) => opencodeToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'the message and part rows (the database, or the JSON tree of an older opencode)',
  orphan: 'opencode keeps a call and its result in one part, so a result without its call means rows were edited',
  duplicate: 'two tool parts of one message carry the same callID (a provider bug, or rows written by another tool)',
  unanswered:
    'the part was left pending or running: nothing repairs it on disk, and opencode sends the model ' +
    '"[Tool execution was interrupted]" for it in memory only, so whether the tool ran is not recorded',
  displaced: 'a tool part holds its call and its result together',
  synthetic: 'the "Tool execution aborted" error opencode writes itself when the user aborts a running call',
};

export const opencode = {
  name: 'opencode',
  displayName: 'opencode',
  shortName: 'opencode',
  homeRoots: ['.local/share/opencode'],
  sessionNoun: 'an opencode data directory (opencode.db or opencode-<channel>.db, or the JSON storage/ tree)',
  detect: detectOpencode,
  detectFiles: detectOpencodeFiles,
  fileNoun: 'opencode database',
  classify: classifyOpencode,
  load: loadOpencode,
  validate: validateOpencode,
  streamLog: streamOpencodeLog,
  // No JSONL log: the rows come from SQLite or whole JSON files, never a second thread's line reader.
  jsonlShape: () => undefined,
  eventText: opencodeEventText,
  transcriptView: opencodeTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: opencodeToolView,
  toolResults: OPENCODE_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text: 'opencode parses its rows with JSON.parse, which keeps the last value of a repeated key, as this audit does',
  },
  damageNotes: {},
  lineage: {
    unclaimedSubagent: 'no session of the data directory is its parent (parent_id)',
    duplicateId: 'opencode keys sessions by id in its database: only the copy in the newest store is the one it opens',
  },
  checks: [opencodeDb, opencodeRows, opencodePermission],
  schemas: OPENCODE_SCHEMAS,
  inspect: opencodeInspect(PAIRING),
  changePolicy: (rel) =>
    /^snapshot\/.*\/objects\/(?!info\/)/.test(rel) || /^tool-output\//.test(rel) ? 'immutable' : 'rewritable',
  cleanup:
    'opencode deletes tool-output/ files after 7 days and (to 1.16) all but its 10 newest logs, and `opencode ' +
    'session delete` removes a session with its children and events',
  timesketchType: 'session-audit:opencode:event',
} satisfies FormatModule;
