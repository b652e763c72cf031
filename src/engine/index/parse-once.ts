/**
 * A capture's logs parsed once for the index: the audit reads each log through the tolerant reader, and the
 * timeline's two passes (timeline.ts) read the authoritative one again; here the first full read of a log is kept
 * (its records and damage in order, and the reader's outcome) and given again, object for object, to a later read
 * with the same reader options. Which file the timeline reads stays the format's choice; nothing is parsed
 * differently. A log larger than KEEP_BYTES is read again each time (a long log is never held whole).
 */
import type { SessionSource } from '../../model/source.js';
import type { Damage, JsonlOptions, JsonlRecord, JsonlStats } from '../../model/records.js';
import type { ReadOutcome } from '../../model/source.js';

const KEEP_BYTES = 16 * 1024 * 1024;

interface Kept {
  options: JsonlOptions;
  /** Records and damage, in the order the reader gave them. */
  items: Array<{ record: JsonlRecord } | { damage: Damage }>;
  outcome: ReadOutcome<JsonlStats>;
}

const sameOptions = (a: JsonlOptions, b: JsonlOptions): boolean =>
  a.maxLineBytes === b.maxLineBytes &&
  a.looksLikeRecord === b.looksLikeRecord &&
  a.maxReportsPerCode === b.maxReportsPerCode &&
  (a.duplicateKeys ?? true) === (b.duplicateKeys ?? true);

/** `source`, its JSONL reads kept for the reads after them (see the header); how many parses each file had. */
export function parsedOnce(
  source: SessionSource,
  keepBytes = KEEP_BYTES,
): SessionSource & { parses: Map<string, number> } {
  const kept = new Map<string, Kept>();
  const parses = new Map<string, number>();
  return {
    found: source.found,
    inventory: source.inventory,
    parses,
    entry: (rel) => source.entry(rel),
    readFile: (rel, maxBytes) => source.readFile(rel, maxBytes),
    readSpans: (rel, spans) => source.readSpans(rel, spans),
    hashUnread: () => source.hashUnread(),
    shareRead: (rel, begin) => source.shareRead(rel, begin),
    adoptHash: (rel, sha256, size) => source.adoptHash(rel, sha256, size),
    rawChunks: (rel) => source.rawChunks(rel),
    streamRaw: (rel, onChunk) => source.streamRaw(rel, onChunk),
    readGroupFile: (name, maxBytes) => source.readGroupFile(name, maxBytes),
    readSibling: (group, session, file, maxBytes) => source.readSibling(group, session, file, maxBytes),
    streamContext: (up, name, options, onRecord) => source.streamContext(up, name, options, onRecord),
    streamJsonl(rel, options, onRecord, onDamage, limit) {
      const have = kept.get(rel);
      if (have && limit === undefined && sameOptions(have.options, options)) {
        for (const it of have.items) {
          if ('record' in it) onRecord(it.record);
          else onDamage(it.damage);
        }
        return have.outcome;
      }
      parses.set(rel, (parses.get(rel) ?? 0) + 1);
      const size = source.entry(rel)?.size ?? Infinity;
      if (have || limit !== undefined || size > keepBytes)
        return source.streamJsonl(rel, options, onRecord, onDamage, limit);
      const items: Kept['items'] = [];
      const outcome = source.streamJsonl(
        rel,
        options,
        (record) => {
          items.push({ record });
          onRecord(record);
        },
        (damage) => {
          items.push({ damage });
          onDamage(damage);
        },
      );
      kept.set(rel, { options: { ...options }, items, outcome });
      return outcome;
    },
  };
}
