/**
 * What the findings of `--against` say about a file that changed since the capture: where a log's captured bytes
 * and the live ones first differ, and how a rewritable file changed (the top-level keys of a JSON document, the
 * lines of a log before and after).
 */
import { byteOrder } from '../model/order.js';
import type { SessionSource } from '../model/source.js';
import { tooDeep } from '../read/json-depth.js';
import type { CapturedFile } from './captured-sessions.js';
import { firstDifference } from './first-difference.js';
import type { LiveDigest } from './live-digest.js';

const LIVE_READ_LIMIT = 256 * 1024 * 1024;

const countLines = (b: Buffer): number => {
  let n = 0;
  for (let k = b.indexOf(10); k !== -1; k = b.indexOf(10, k + 1)) n++;
  return b.length && b[b.length - 1] !== 10 ? n + 1 : n;
};

/** Top-level JSON keys whose values differ (for identity and other state documents). */
function changedKeys(before: Buffer, after: Buffer): string[] | undefined {
  if (tooDeep(before) || tooDeep(after)) return undefined;
  try {
    const a = JSON.parse(before.toString('utf8')) as unknown;
    const b = JSON.parse(after.toString('utf8')) as unknown;
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b))
      return undefined;
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return [...new Set([...Object.keys(ra), ...Object.keys(rb)])]
      .filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]))
      .sort(byteOrder);
  } catch {
    return undefined;
  }
}

/** Where a log's captured bytes and the live file first differ (undefined without the captured bytes). */
export function differenceAt(
  before: Buffer | undefined,
  f: CapturedFile,
  src: SessionSource,
): ReturnType<typeof firstDifference> {
  if (!before) return undefined;
  const now = src.readFile(f.rel, LIVE_READ_LIMIT);
  if (!now.ok) return undefined;
  return firstDifference(before, now.value.bytes.subarray(0, before.length + 1));
}

/** The message for a file the agent may rewrite that changed since the capture: what changed in it. */
export function describeChange(
  redacted: boolean,
  f: CapturedFile,
  before: Buffer | undefined,
  src: SessionSource,
  live: LiveDigest,
): string {
  const sizes = `${f.size} → ${live.size} bytes`;
  const now = before ? src.readFile(f.rel, LIVE_READ_LIMIT) : undefined;
  if (!before || !now?.ok || now.value.truncated)
    return `changed since the capture (${sizes}${redacted ? '; the capture is redacted, contents not compared' : ''})`;
  const after = now.value.bytes;
  if (f.rel.endsWith('.json')) {
    const keys = changedKeys(before, after);
    if (keys)
      return (
        `rewritten since the capture (${sizes}); changed key${keys.length === 1 ? '' : 's'}: ` +
        `${keys.length ? keys.join(', ') : 'none (formatting only)'}`
      );
  }
  if (f.rel.endsWith('.jsonl')) {
    const diff = firstDifference(before, after);
    const grew = live.size >= f.size && live.prefixSha256 === f.sha256;
    const kind = grew ? 'appended to' : 'rewritten (compaction, rewind or repair)';
    return (
      `${kind} since the capture: ${countLines(before)} → ${countLines(after)} ` +
      `lines${diff && !grew ? `, first difference at line ${diff.line}` : ''}`
    );
  }
  const diff = firstDifference(before, after);
  return `changed since the capture (${sizes})${diff ? `, first difference at line ${diff.line}` : ''}`;
}
