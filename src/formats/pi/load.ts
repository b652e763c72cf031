/**
 * The Pi loader: the session file streamed (records, events, conversation items, damage), its tree as Pi rebuilds
 * it handed to the checks as a doc, then the session's identity.
 */
import type { SessionSource } from '../../model/source.js';
import type { JsonlRecord } from '../../model/records.js';
import type { SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';
import { streamNormalizedLog, type LogHandlers } from '../shared/log-lines.js';
import { isPiHeader } from './artifacts.js';
import { PiNormalizer } from './normalize.js';
import type { TreeFacts } from './tree.js';

/** The doc kind the loader hands the tree in (value TreeFacts): the Pi checks read it. */
export const PI_TREE_KIND = 'pi-tree';

/** What merged-line recovery may take for a record: a header or an entry (a `type` and a time), never a fragment. */
export const looksLikePiRecord = (v: unknown): boolean =>
  isPiHeader(v) ||
  (typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { type?: unknown }).type === 'string' &&
    typeof (v as { timestamp?: unknown }).timestamp === 'string');

const sessionFile = (source: SessionSource, artifacts: ReadonlyMap<string, Artifact>): Artifact | undefined =>
  [...artifacts.values()].find((a) => a.kind === 'session' && source.entry(a.path)?.type === 'file');

function stream(
  source: SessionSource,
  a: Artifact,
  limits: LoadLimits,
  h: LogHandlers,
): { end: FileEndEvent; facts: TreeFacts; n: PiNormalizer } {
  const n = new PiNormalizer();
  n.begin(a.path);
  const r = streamNormalizedLog(source, a.path, looksLikePiRecord, limits.maxLineBytes, n, h);
  const facts = n.endFile();
  const end: FileEndEvent = r.ok
    ? { file: a.path, kind: a.kind, stats: r.value }
    : { file: a.path, kind: a.kind, error: r.error };
  end.dead = n.deadRanges();
  end.liveTurns = n.liveTurns;
  return { end, facts, n };
}

export function loadPi(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  const a = sessionFile(source, artifacts);
  if (a) {
    const { end, facts, n } = stream(source, a, limits, {
      record: (record) => sink.record({ file: a.path, kind: a.kind, record }),
      event: (e) => sink.event(e),
      chat: (c) => sink.chat(c),
      damage: (damage) => sink.damage({ file: a.path, kind: a.kind, damage }),
    });
    sink.fileEnd(end);
    const size = source.entry(a.path)?.size ?? 0;
    sink.doc({ file: a.path, kind: PI_TREE_KIND, size, value: facts });
    sink.doc({ file: a.path, kind: IDENTITY_KIND, size, value: n.identity });
  }
  source.hashUnread();
}

export function streamPiLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  const a = sessionFile(source, artifacts);
  return a ? stream(source, a, limits, { event: onEvent }).end : undefined;
}
