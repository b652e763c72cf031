/**
 * A live file read once: the digest, size and line count of the whole file and of its first N bytes (N the size
 * captured), enough to tell an unchanged file and a log that only grew from one that changed.
 */
import { createHash } from 'node:crypto';
import type { SessionSource } from '../model/source.js';

export interface LiveDigest {
  size: number;
  sha256: string;
  /** sha256 of the first `prefixLen` bytes. */
  prefixSha256: string;
  /** Lines of the whole file and of its first `prefixLen` bytes (a last line without a newline counts). */
  lines: number;
  prefixLines: number;
}

const newlines = (b: Buffer): number => {
  let n = 0;
  for (let k = b.indexOf(10); k !== -1; k = b.indexOf(10, k + 1)) n++;
  return n;
};

export function liveDigest(src: SessionSource, rel: string, prefixLen: number): LiveDigest | { error: string } {
  const whole = createHash('sha256');
  const prefix = createHash('sha256');
  let seen = 0;
  let lines = 0;
  let prefixLines = 0;
  let last = 10;
  let prefixLast = 10;
  const r = src.streamRaw(rel, (chunk) => {
    whole.update(chunk);
    lines += newlines(chunk);
    if (chunk.length) last = chunk[chunk.length - 1]!;
    if (seen < prefixLen) {
      const part = chunk.subarray(0, Math.min(chunk.length, prefixLen - seen));
      prefix.update(part);
      prefixLines += newlines(part);
      if (part.length) prefixLast = part[part.length - 1]!;
    }
    seen += chunk.length;
  });
  if (!r.ok) return { error: r.error };
  return {
    size: r.value.size,
    sha256: whole.digest('hex'),
    prefixSha256: prefix.digest('hex'),
    lines: lines + (last !== 10 ? 1 : 0),
    prefixLines: prefixLines + (prefixLast !== 10 ? 1 : 0),
  };
}
