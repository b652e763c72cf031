/**
 * Streams updates.jsonl, the authoritative log: each record normalized into a SessionEvent with its position
 * (`seq`), its prompt turn and, for rewind markers, how Grok's replay applies them. Shared by the full loader
 * and by the timeline's second pass.
 */
import type { SessionSource } from '../../model/source.js';
import type { Damage, JsonlRecord } from '../../model/records.js';
import type { SessionEvent } from '../../model/events.js';
import type { FileEndEvent } from '../../model/session.js';
import type { LoadLimits } from '../types.js';
import { normalizeUpdate } from './normalize.js';
import { RewindFilter } from './rewind.js';
import { damagedLines } from '../shared/log-lines.js';

export const looksLikeUpdate = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return 'method' in o || 'params' in o || ('sessionId' in o && 'update' in o);
};

export function streamUpdatesLog(
  source: SessionSource,
  path: string,
  limits: LoadLimits,
  onRecord: (r: JsonlRecord) => void,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
  onDamage: (d: Damage) => void,
): FileEndEvent {
  const filter = new RewindFilter();
  let seq = 0;
  // A damaged line is still a line to Grok's replay (an unparseable one splits a user run); blank lines are not.
  const counted = damagedLines(() => filter.step(seq++, { k: 'other' }));
  const r = source.streamJsonl(
    path,
    { looksLikeRecord: looksLikeUpdate, maxLineBytes: limits.maxLineBytes },
    (record) => {
      onRecord(record);
      const e = normalizeUpdate(path, record);
      e.seq = seq++;
      const st = filter.step(e.seq, e.step);
      e.turn = st.turn;
      e.opensTurn = st.opensTurn;
      e.rewind = st.rewind;
      onEvent(e, record);
    },
    (damage) => {
      counted(damage);
      onDamage(damage);
    },
  );
  const end: FileEndEvent = r.ok
    ? { file: path, kind: 'updates', stats: r.value }
    : { file: path, kind: 'updates', error: r.error };
  end.dead = filter.dead;
  end.liveTurns = filter.liveTurns;
  return end;
}
