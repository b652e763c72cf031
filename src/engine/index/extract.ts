/**
 * What the index holds of one capture, got by the engine itself: the capture is written out (materialize) into a
 * private temp directory where its session had its name, found again by discovery, audited (findings, and the
 * tool-call pairing through an observer) and its timeline rebuilt. No format is parsed here.
 */
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CheckRun } from '../../checks/define.js';
import { detectorsFor, formatOf } from '../../formats/registry.js';
import type { Finding } from '../../model/finding.js';
import type { FoundSession } from '../../model/found.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../model/records.js';
import { classifyPairs } from '../../pairing/classify.js';
import { PairingCollector } from '../../pairing/collect.js';
import type { PairRow } from '../../pairing/pairing-result.js';
import { discoverSessions } from '../../read/discover.js';
import { escapeText, plainText } from '../../read/names.js';
import { privateTempDir } from '../../read/private-temp.js';
import { fsSource } from '../../read/source.js';
import { materialize } from '../../store/materialize.js';
import type { CaptureRecord } from '../../store/record.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { auditSession } from '../audit-session.js';
import { buildTimeline } from '../timeline.js';

export interface CaptureFacts {
  calls: PairRow[];
  findings: Finding[];
}

/** The session as discovery finds it where it was written out: the one with the recorded id, else the only one. */
function findAgain(record: CaptureRecord, path: string): FoundSession | string {
  const found = discoverSessions(path, detectorsFor(record.session.format)).filter((f) => f.format !== undefined);
  const mine = found.find((f) => f.id === record.session.id) ?? (found.length === 1 ? found[0] : undefined);
  return mine ?? `the capture is not recognised as a ${record.session.format} session when written out`;
}

/** Why a capture of a group's own files (an agent's per-project history) has no events: not a failure. */
export const GROUP_FILES = "a group's own files (no session format)";

/**
 * The facts of one capture, or a string saying why there are none (recorded in the captures table). The timeline's
 * events go to `onEvent` as they are rebuilt (a long log is never held whole).
 */
export function captureFacts(
  store: string,
  record: CaptureRecord,
  onEvent: (e: TimelineEvent) => void,
): CaptureFacts | string {
  if (record.status === 'deleted') return 'deleted';
  if (record.session.format === '') return GROUP_FILES;
  const tmp = privateTempDir('index');
  try {
    // Not under its group's own name: the session is written out alone, and under that name a format would look for
    // its neighbours (a Grok subagent's own session) and report them missing. Under another name it does not.
    // The recorded names are escaped (read/names.ts), the temp directory is not: escaped to join them.
    const group = join(escapeText(tmp), record.session.groupName !== undefined ? 'g' : 'r');
    const files = record.session.members ? group : join(group, basename(record.session.abs));
    materialize(store, record, files);
    const path = record.session.members ? join(files, basename(record.session.display)) : files;
    const found = findAgain(record, plainText(path));
    if (typeof found === 'string') return found;
    const format = formatOf(found);
    const dialect = format.pairing;
    const pairing = new PairingCollector(dialect, { keepDetail: true });
    const observer: CheckRun = {
      event: (e) => pairing.event(e),
      chat: (i) => pairing.chat(i),
      fileEnd: (f) => {
        if (f.file === dialect.toolLog) pairing.logEnd(f.dead);
      },
    };
    const audit = auditSession(fsSource(found), format, { command: 'audit' }, [observer]);
    buildTimeline({ source: fsSource(found), format }, { limits: { maxLineBytes: DEFAULT_MAX_LINE_BYTES } }, onEvent);
    return { calls: classifyPairs(pairing, dialect).rows, findings: audit.findings };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
