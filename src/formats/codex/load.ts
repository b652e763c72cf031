/**
 * The Codex loader: each rollout streamed once (records, events, conversation items, damage), then the
 * session's identity from its first session_meta. Compressed copies (.jsonl.zst) are inventoried and hashed only:
 * Node 20 has no zstd.
 */
import type { SessionSource } from '../../model/source.js';
import type { Damage, JsonlRecord } from '../../model/records.js';
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND, type SessionIdentity } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';
import { isRolloutLine } from './artifacts.js';
import { CodexNormalizer } from './normalize.js';
import { streamNormalizedLog } from '../shared/log-lines.js';

/** Damage that leaves a line Codex cannot parse (it skips and counts it): still a place in the log. */

/** What merged-line recovery may take for a record: a rollout line, never a nested object. */
export const looksLikeRolloutLine = (v: unknown): boolean =>
  isRolloutLine(v) || (typeof v === 'object' && v !== null && !Array.isArray(v) && 'payload' in v && 'type' in v);

export interface RolloutHandlers {
  record?(r: JsonlRecord): void;
  event(e: SessionEvent, r: JsonlRecord): void;
  chat?(c: ChatItem): void;
  damage?(d: Damage): void;
}

export function streamRollout(
  source: SessionSource,
  path: string,
  limits: LoadLimits,
  h: RolloutHandlers,
): { end: FileEndEvent; identity: SessionIdentity } {
  const n = new CodexNormalizer(path);
  const r = streamNormalizedLog(source, path, looksLikeRolloutLine, limits.maxLineBytes, n, h);
  const end: FileEndEvent = r.ok
    ? { file: path, kind: 'rollout', stats: r.value }
    : { file: path, kind: 'rollout', error: r.error };
  const { dead, liveTurns } = n.end();
  end.dead = dead;
  end.liveTurns = liveTurns;
  return { end, identity: n.identity };
}

const rollouts = (source: SessionSource, artifacts: ReadonlyMap<string, Artifact>): Artifact[] =>
  [...artifacts.values()].filter((a) => a.kind === 'rollout' && source.entry(a.path)?.type === 'file');

export function loadCodex(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  for (const a of rollouts(source, artifacts)) {
    const { end, identity } = streamRollout(source, a.path, limits, {
      record: (record) => sink.record({ file: a.path, kind: 'rollout', record }),
      event: (e) => sink.event(e),
      chat: (c) => sink.chat(c),
      damage: (damage) => sink.damage({ file: a.path, kind: 'rollout', damage }),
    });
    sink.fileEnd(end);
    sink.doc({ file: a.path, kind: IDENTITY_KIND, size: source.entry(a.path)?.size ?? 0, value: identity });
  }
  source.hashUnread();
}

export function streamCodexLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  const a = rollouts(source, artifacts)[0];
  return a ? streamRollout(source, a.path, limits, { event: onEvent }).end : undefined;
}
