/** Reading stored file versions back: the concatenation of their pieces, each read pinned and re-hashed. */
import { readChunks, streamFile } from '../read/files.js';
import { objectPath } from './layout.js';

/**
 * The bytes of a version made of `pieces`, at most `max` of them: undefined when it is larger, or with `head` its
 * first `max` bytes.
 */
export function readVersion(store: string, pieces: readonly string[], max: number, head = false): Buffer | undefined {
  const parts: Buffer[] = [];
  let n = 0;
  for (const p of pieces) {
    let over = false;
    streamFile(
      objectPath(store, p),
      (chunk) => {
        if (over) return;
        if (n + chunk.length > max) {
          over = true;
          if (head) {
            parts.push(Buffer.from(chunk.subarray(0, max - n)));
            n = max;
          }
          return;
        }
        parts.push(Buffer.from(chunk));
        n += chunk.length;
      },
      { pinned: true },
    );
    if (over) return head ? Buffer.concat(parts, n) : undefined;
  }
  return Buffer.concat(parts, n);
}

/** The bytes of a version, pulled chunk by chunk (for writing it out). */
export async function* versionChunks(store: string, pieces: readonly string[]): AsyncGenerator<Buffer> {
  for (const p of pieces) yield* readChunks(objectPath(store, p), undefined, true);
}
