/**
 * Raw bytes shown to a reviewer: valid UTF-8 decoded, every other byte kept apart as an invalid byte (the HTML
 * report shows it as a marked `\xHH`), and the decoded text escaped like all session content (escape.ts). Nothing
 * of the input is dropped or merged.
 */

export type ByteSegment = { text: string } | { invalid: number };

/** Length of the valid UTF-8 sequence at `i`, or 0 (RFC 3629: no overlongs, no surrogates, at most U+10FFFF). */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (c === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (c === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/** Decoded text runs and invalid bytes, in order. */
export function byteSegments(b: Uint8Array): ByteSegment[] {
  const out: ByteSegment[] = [];
  const dec = new TextDecoder('utf-8');
  let start = 0;
  let i = 0;
  const flush = (end: number): void => {
    if (end > start) out.push({ text: dec.decode(b.subarray(start, end)) });
  };
  while (i < b.length) {
    const n = sequenceAt(b, i);
    if (n > 0) {
      i += n;
      continue;
    }
    flush(i);
    out.push({ invalid: b[i]! });
    i++;
    start = i;
  }
  flush(i);
  return out;
}

/** The longest prefix of at most `max` bytes that does not end inside a UTF-8 sequence. */
export function cutAtCharacter(b: Uint8Array, max: number): number {
  if (b.length <= max) return b.length;
  let end = max;
  // Back off over continuation bytes (at most 3) to the start of the sequence they belong to.
  for (let k = 0; k < 3 && end > 0 && (b[end]! & 0xc0) === 0x80; k++) end--;
  return end;
}
