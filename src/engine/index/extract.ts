/**
 * What the index holds of one capture, got by the engine itself: the capture is read from the store's pieces as a
 * session source (store/store-source.ts: nothing is written out), audited (findings, and the tool-call pairing
 * through an observer) and its timeline rebuilt from the same parse of its logs (parse-once.ts). No format is
 * parsed here.
 */
import { basename, join } from 'node:path';
import type { CheckRun } from '../../checks/define.js';
import { formatOf } from '../../formats/registry.js';
import type { Finding } from '../../model/finding.js';
import type { FoundSession } from '../../model/found.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../model/records.js';
import { classifyPairs } from '../../pairing/classify.js';
import { PairingCollector } from '../../pairing/collect.js';
import type { PairRow } from '../../pairing/pairing-result.js';
import type { CaptureRecord } from '../../store/record.js';
import { storeSource } from '../../store/store-source.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { auditSession } from '../audit-session.js';
import { buildTimeline } from '../timeline.js';
import { homeFacts } from './home-facts.js';
import { parsedOnce } from './parse-once.js';

export interface CaptureFacts {
  calls: PairRow[];
  findings: Finding[];
}

/** Why a capture of a group's own files (an agent's per-project history) has no events: not a failure. */
export const GROUP_FILES = "a group's own files (no session format)";

/** Where a capture is said to be: a place that does not exist (nothing is read by path). */
const VIRTUAL = '/nonexistent/session-audit-capture';

/**
 * The capture as discovery finds a session written out alone: not under its group's own name (there a format would
 * look for its neighbours, a Grok subagent's own session, and report them missing), in a group `g` (or `r` for a
 * session found outside any group), a file session by the file it is shown by.
 */
export function capturedAs(record: CaptureRecord): FoundSession {
  const group = join(VIRTUAL, record.session.groupName !== undefined ? 'g' : 'r');
  const base = {
    id: record.session.id,
    format: record.session.format,
    groupName: basename(group),
    groupAbs: group,
  };
  if (!record.session.members) {
    const abs = join(group, basename(record.session.abs));
    return { ...base, abs, display: abs };
  }
  const main = basename(record.session.display);
  const display = join(group, main);
  const dirMain = record.files.some((f) => f.path === main && f.type === 'dir');
  return { ...base, abs: group, display, members: [...record.session.members], rootAbs: dirMain ? display : group };
}

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
  if (record.session.format === '') {
    if (!record.session.id.startsWith('home:')) return GROUP_FILES;
    return homeFacts(store, record, capturedAs(record), onEvent) ?? { calls: [], findings: [] };
  }
  const found = capturedAs(record);
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
  // One source for both: the audit's read of each log is what the timeline's two passes are given again.
  const source = parsedOnce(storeSource(store, record, found));
  const audit = auditSession(source, format, { command: 'audit' }, [observer]);
  buildTimeline({ source, format }, { limits: { maxLineBytes: DEFAULT_MAX_LINE_BYTES } }, onEvent);
  return { calls: classifyPairs(pairing, dialect).rows, findings: audit.findings };
}
