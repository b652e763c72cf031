/** Writing very large inputs without holding them in memory: a file with one huge JSON line among normal ones. */
import { closeSync, openSync, writeSync } from 'node:fs';

/**
 * Write `before`, then one JSON line of exactly `size` bytes (a record whose string field is `size` bytes of
 * filler, newline not counted), then `after`; in 1 MiB pieces.
 */
export function writeWithHugeLine(
  path: string,
  size: number,
  {
    before = Buffer.alloc(0),
    after = Buffer.alloc(0),
    head = '{"timestamp":1787131880,"method":"session/update","params":{"blob":"',
    tail = '"}}',
    newline = true,
  }: { before?: Buffer; after?: Buffer; head?: string; tail?: string; newline?: boolean } = {},
): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, before);
    writeSync(fd, head);
    const piece = Buffer.alloc(1 << 20, 0x61);
    let left = size - Buffer.byteLength(head) - Buffer.byteLength(tail);
    while (left > 0) {
      const n = Math.min(left, piece.length);
      writeSync(fd, piece, 0, n);
      left -= n;
    }
    writeSync(fd, tail);
    if (newline) writeSync(fd, '\n');
    writeSync(fd, after);
  } finally {
    closeSync(fd);
  }
}
