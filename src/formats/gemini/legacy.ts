/**
 * A legacy `.json` session (formats/gemini-cli.md §2.2, §3.9): one pretty-printed object. Its messages become records
 * placed where they sit in the file (line and byte offset of each element of `messages`, found by a scan of the bytes
 * that knows strings and nesting), so findings point into the file as they do in a JSONL log.
 */
import type { JsonlRecord } from '../../model/records.js';
import { isObj } from '../shared/events.js';

interface Span {
  start: number;
  end: number;
}

/** The byte spans of the objects in the top-level `messages` array of a JSON text (structural bytes are ASCII). */
export function messageSpans(buf: Buffer): Span[] {
  const spans: Span[] = [];
  let depth = 0;
  let inString = false;
  let strStart = 0;
  let lastString = '';
  let key = '';
  let inMessages = false;
  let start = -1;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) {
        inString = false;
        if (depth === 1) lastString = buf.toString('utf8', strStart, i);
      }
      continue;
    }
    switch (c) {
      case 0x22:
        inString = true;
        strStart = i + 1;
        break;
      case 0x3a:
        if (depth === 1) key = lastString;
        break;
      case 0x7b:
      case 0x5b:
        if (depth === 1 && c === 0x5b && key === 'messages') inMessages = true;
        if (inMessages && depth === 2 && c === 0x7b) start = i;
        depth++;
        break;
      case 0x7d:
      case 0x5d:
        depth--;
        if (inMessages && depth === 2 && c === 0x7d && start >= 0) {
          spans.push({ start, end: i + 1 });
          start = -1;
        }
        if (inMessages && depth === 1) inMessages = false;
        if (depth === 1 && c === 0x7d) key = '';
        break;
      default:
    }
  }
  return spans;
}

/**
 * The records of a parsed legacy conversation: the conversation without its messages (at its `{`), then each message
 * at its place in the file (by order among the object elements of `messages`).
 */
export function legacyRecords(buf: Buffer, value: unknown): JsonlRecord[] {
  if (!isObj(value)) return [{ line: 1, byteOffset: 0, byteLength: buf.length, value }];
  const { messages, ...head } = value;
  const spans = messageSpans(buf);
  // The document starts at its `{`, after any white space before it.
  const open = Math.max(buf.indexOf(0x7b), 0);
  let line = 1;
  for (let i = 0; i < open; i++) if (buf[i] === 10) line++;
  const out: JsonlRecord[] = [
    { line, byteOffset: open, byteLength: (spans[0]?.start ?? buf.length) - open, value: head },
  ];
  const list = Array.isArray(messages) ? messages.filter(isObj) : [];
  let pos = open;
  list.forEach((m, k) => {
    const s = spans[k];
    if (s) {
      for (let i = pos; i < s.start; i++) if (buf[i] === 10) line++;
      pos = s.start;
    }
    out.push({ line, byteOffset: s?.start ?? 0, byteLength: s ? s.end - s.start : 0, value: m });
  });
  return out;
}
