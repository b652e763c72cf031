/**
 * The second thread of schema-offload.ts: read one log like the loader does, validate every record, hash the
 * bytes, and send the issues, the hash and the file's stamps back.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { FORMATS } from '../formats/registry.js';
import type { RecordIssue } from '../model/session.js';
import { streamFile } from '../read/files.js';
import { JsonlScanner } from '../read/jsonl.js';
import { recordValidator } from './schema-offload.js';

const { abs, kind, format, maxLineBytes, flag, port } = workerData as { abs: string; kind: string; format: string; maxLineBytes: number; flag: Int32Array; port: MessagePort };
let done = 1;
try {
  const fm = FORMATS.find((f) => f.name === format);
  const shape = fm?.jsonlShape?.(kind);
  if (!fm || !shape) throw new Error(`format ${format} cannot describe ${kind} records`);
  const issues: RecordIssue[] = [];
  let records = 0;
  const validate = recordValidator(fm, kind, issues);
  const scanner = new JsonlScanner(
    (r) => {
      records++;
      validate(r);
    },
    () => {},
    { looksLikeRecord: shape, maxLineBytes },
  );
  const read = streamFile(
    abs,
    (chunk) => {
      scanner.push(chunk);
      Atomics.add(flag, 1, 1);
    },
    { reuse: true, stamp: true },
  );
  const stats = scanner.end();
  port.postMessage({ records, bytes: stats.bytes, issues, sha256: read.sha256, size: read.size, stamps: read.stamps });
} catch (e) {
  done = 2;
  port.postMessage({ records: -1, bytes: -1, issues: [], error: e instanceof Error ? e.message : String(e) });
} finally {
  Atomics.store(flag, 0, done);
  Atomics.notify(flag, 0);
}
