/**
 * JSON documents beside a log (summaries, metadata, checkpoints): parsed whole, or a problem that says why not
 * (one nested deeper than MAX_JSON_DEPTH is not parsed).
 */
import { isUtf8 } from 'node:buffer';
import type { DocEvent } from '../../model/session.js';
import { firstInvalidUtf8 } from '../../read/json-bytes.js';
import { tooDeep, tooDeepDetail } from '../../read/json-depth.js';
import { duplicateKey } from '../../read/json-keys.js';

export function parseDoc(file: string, kind: string, bytes: Buffer, size: number): DocEvent {
  if (bytes.length === 0)
    return { file, kind, size, problem: { kind: 'empty', detail: 'the file is empty (0 bytes)' } };
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    return {
      file,
      kind,
      size,
      problem: { kind: 'invalid-utf8', detail: `invalid UTF-8 at byte ${at}`, byteOffset: at },
    };
  }
  const deep = tooDeep(bytes);
  if (deep) {
    const detail = `${tooDeepDetail(deep, 'file')}; not parsed`;
    return { file, kind, size, problem: { kind: 'too-deep', detail, byteOffset: deep.at } };
  }
  const text = bytes.toString('utf8');
  try {
    const doc: DocEvent = { file, kind, size, value: JSON.parse(text) };
    const dup = duplicateKey(text);
    if (dup) doc.duplicateKey = dup;
    return doc;
  } catch (e) {
    const msg = e instanceof Error ? e.message : 'not JSON';
    const truncated = /end of JSON input|Unterminated string/.test(msg);
    return {
      file,
      kind,
      size,
      problem: {
        kind: 'not-json',
        detail: truncated
          ? 'the JSON ends early: the file was truncated (a crash during a non-atomic write)'
          : `not valid JSON (${msg.replace(/, ".*" is not valid JSON$/s, '').slice(0, 120)})`,
      },
    };
  }
}
