/**
 * The work of the second thread of record-offload.ts (loaded by record-worker.ts): consume the log's bytes from
 * the loader's ring of shared buffers with a reader configured like the loader's, validate every record, hash the
 * bytes, and send the issues and the hash back.
 */
import { createHash } from 'node:crypto';
import { workerData, type MessagePort } from 'node:worker_threads';
import { FORMATS } from '../../formats/registry.js';
import type { FormatModule } from '../../formats/types.js';
import { ChunkRing } from '../../read/chunk-ring.js';
import { JsonlScanner } from '../../read/jsonl.js';
import { noteBytesRead } from '../../read/memory.js';
import { CandidateLines, rawLiterals } from '../../secrets/raw-literals.js';
import { recordWork, type OffloadWork } from './record-offload.js';

const {
  ring: shared,
  file,
  kind,
  work,
  format,
  maxLineBytes,
  flag,
  port,
} = workerData as {
  ring: SharedArrayBuffer;
  file: string;
  kind: string;
  work: OffloadWork;
  format: string;
  maxLineBytes: number;
  flag: Int32Array;
  port: MessagePort;
};
const ring = ChunkRing.attach(shared);
let done = 1;
try {
  const fm = FORMATS.find((f) => f.name === format);
  const shape = fm?.jsonlShape?.(kind);
  if (!fm || !shape) throw new Error(`format ${format} cannot describe ${kind} records`);
  let records = 0;
  const w = recordWork(fm, file, kind, work);
  const { issues, secrets } = w.found;
  // The secret scan of an agent whose junctions the loader's thread follows (checks/secrets.ts) looks only at the
  // lines the native pass names (every other line holds no string a detector could match): alone, only they are
  // parsed; beside the schema check, which parses every line, only their records are scanned.
  const streams = (fm as FormatModule).streamedText !== undefined;
  const raw = work.secrets && streams ? rawLiterals() : undefined;
  const lines = raw ? new CandidateLines(raw) : undefined;
  const skipping = lines !== undefined && !work.validate;
  let named = true;
  const select = !lines
    ? undefined
    : skipping
      ? lines.holds
      : (offset: number, bytes: Buffer): boolean => {
          named = lines.holds(offset, bytes);
          return true;
        };
  const scanner = new JsonlScanner(
    (r) => {
      records++;
      w.each(r, named);
    },
    () => {},
    // Repeated keys are the main thread's (the schema check's) finding: not looked for twice.
    { looksLikeRecord: shape, maxLineBytes, duplicateKeys: false, ...(select ? { select } : {}) },
  );
  const hash = createHash('sha256');
  let size = 0;
  for (let chunk = ring.next(); chunk; chunk = ring.next()) {
    hash.update(chunk);
    size += chunk.length;
    lines?.block(chunk);
    scanner.push(chunk);
    // This thread's parse garbage is collected as the loader's is (read/memory.ts): 1 GB peak 251 MB, was 261-270.
    noteBytesRead(chunk.length);
    ring.release();
    Atomics.add(flag, 1, 1);
  }
  if (ring.producerGaveUp) {
    // The loader's read failed (or it stopped sharing): like the loader, no end-of-file processing.
    w.end();
    port.postMessage({ records, bytes: size, issues, secrets, sha256: '', size, partial: true });
  } else {
    const stats = scanner.end();
    w.end();
    const counted = skipping ? { lines: stats.lines, selected: true } : {};
    port.postMessage({ records, bytes: stats.bytes, issues, secrets, sha256: hash.digest('hex'), size, ...counted });
  }
} catch (e) {
  done = 2;
  ring.leave();
  port.postMessage({ records: -1, bytes: -1, issues: [], error: e instanceof Error ? e.message : String(e) });
} finally {
  Atomics.store(flag, 0, done);
  Atomics.notify(flag, 0);
}
