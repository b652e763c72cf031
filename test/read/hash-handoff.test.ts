/**
 * The hash hand-off of a log checked in a second thread: the loader reads the log into a ring of shared buffers,
 * the consumer hashes exactly those bytes, and its hash is adopted only if every byte went through the ring.
 * Otherwise the file is read again, and if it changed in between it is left without a hash and marked.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, expect, test } from 'vitest';
import { ChunkRing, RING_SLOT_BYTES, RING_SLOTS } from '../../src/read/chunk-ring.js';
import { fsSource } from '../../src/read/source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function session(content: string | Buffer): { abs: string; file: string } {
  const abs = mkdtempSync(join(tmpdir(), 'sa-hash-'));
  dirs.push(abs);
  writeFileSync(join(abs, 'updates.jsonl'), content);
  return { abs, file: join(abs, 'updates.jsonl') };
}

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');
const lines = '{"a":1}\n{"a":2}\n';

/** A consumer in another thread that hashes what the ring carries (what the schema worker does, minus the schema). */
function hashingConsumer(ring: ChunkRing): Promise<{ sha256: string; size: number }> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    const { createHash } = require('node:crypto');
    const ctrl = new Int32Array(workerData, 0, 4 + ${RING_SLOTS});
    const data = Buffer.from(workerData, (4 + ${RING_SLOTS}) * 4, ${RING_SLOTS} * ${RING_SLOT_BYTES});
    const h = createHash('sha256');
    let size = 0;
    for (;;) {
      const consumed = Atomics.load(ctrl, 1);
      const written = Atomics.load(ctrl, 0);
      if (written > consumed) {
        const i = consumed % ${RING_SLOTS};
        const chunk = data.subarray(i * ${RING_SLOT_BYTES}, i * ${RING_SLOT_BYTES} + Atomics.load(ctrl, 4 + i));
        h.update(chunk);
        size += chunk.length;
        Atomics.add(ctrl, 1, 1);
        Atomics.notify(ctrl, 1);
        continue;
      }
      if (Atomics.load(ctrl, 2) !== 0) break;
      Atomics.wait(ctrl, 0, written, 50);
    }
    parentPort.postMessage({ sha256: h.digest('hex'), size });`;
  const w = new Worker(code, { eval: true, workerData: ring.shared });
  return new Promise((resolve, reject) => {
    w.once('message', (m) => {
      void w.terminate();
      resolve(m as { sha256: string; size: number });
    });
    w.once('error', reject);
  });
}

test(
  "a log read through the ring keeps no hash of its own; the consumer's " + 'hash of the same bytes is adopted',
  async () => {
    // Larger than the whole ring, so the reader has to wait for the consumer to free slots.
    const big = Buffer.from(`${'{"k":"'.padEnd(1000, 'x')}"}\n`.repeat(RING_SLOTS * 1500));
    const { abs } = session(big);
    const src = fsSource({ abs, display: abs, id: 'x' });
    const ring = ChunkRing.create();
    const consumer = hashingConsumer(ring);
    src.shareRead('updates.jsonl', () => ring);
    let records = 0;
    expect(
      src.streamJsonl(
        'updates.jsonl',
        {},
        () => records++,
        () => {},
      ).ok,
    ).toBe(true);
    expect(records).toBe(RING_SLOTS * 1500);
    expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
    const theirs = await consumer;
    expect(theirs).toEqual({ sha256: sha(big), size: big.length });
    expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size)).toBe(true);
    expect(src.entry('updates.jsonl')!.sha256).toBe(sha(big));
  },
);

test('a read that did not go whole through the ring is not adopted; a re-read of an unchanged file hashes it', () => {
  const { abs } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  const ring = ChunkRing.create();
  ring.leave(); // the consumer is gone before the read starts
  src.shareRead('updates.jsonl', () => ring);
  src.streamJsonl(
    'updates.jsonl',
    {},
    () => {},
    () => {},
  );
  expect(src.adoptHash('updates.jsonl', sha(lines), Buffer.byteLength(lines))).toBe(false);
  expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
  src.streamJsonl(
    'updates.jsonl',
    {},
    () => {},
    () => {},
    Buffer.byteLength(lines),
  );
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(lines));
  expect(src.entry('updates.jsonl')!.readError).toBeUndefined();
});

test('a file that changed between the shared read and the re-read is left without a hash and marked', () => {
  const { abs, file } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  const ring = ChunkRing.create();
  ring.leave();
  src.shareRead('updates.jsonl', () => ring);
  src.streamJsonl(
    'updates.jsonl',
    {},
    () => {},
    () => {},
  );
  appendFileSync(file, '{"a":3}\n');
  const values: unknown[] = [];
  src.streamJsonl(
    'updates.jsonl',
    {},
    (r) => values.push(r.value),
    () => {},
    Buffer.byteLength(lines),
  );
  // Only the bytes the first read saw are read again...
  expect(values).toEqual([{ a: 1 }, { a: 2 }]);
  // ...but the file is not the version that was parsed: no hash that could be mistaken for that version's.
  expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
  expect(src.entry('updates.jsonl')!.readError).toMatch(/changed while being audited/);
  src.hashUnread();
  expect(src.entry('updates.jsonl')!.sha256).toBeUndefined();
});

test('a hash that is not a sha256, or of another size, is refused', async () => {
  const { abs } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  const ring = ChunkRing.create();
  const consumer = hashingConsumer(ring);
  src.shareRead('updates.jsonl', () => ring);
  src.streamJsonl(
    'updates.jsonl',
    {},
    () => {},
    () => {},
  );
  const theirs = await consumer;
  expect(src.adoptHash('updates.jsonl', 'not-a-hash', theirs.size)).toBe(false);
  expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size + 1)).toBe(false);
  expect(src.adoptHash('updates.jsonl', theirs.sha256, theirs.size)).toBe(true);
});

test('without a ring every read hashes as before', () => {
  const { abs } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  src.streamJsonl(
    'updates.jsonl',
    {},
    () => {},
    () => {},
  );
  expect(src.entry('updates.jsonl')!.sha256).toBe(sha(lines));
});

test('a log that cannot be opened any more releases the ring at once', () => {
  const { abs, file } = session(lines);
  const src = fsSource({ abs, display: abs, id: 'x' });
  const ring = ChunkRing.create();
  src.shareRead('updates.jsonl', () => ring);
  rmSync(file);
  const t = Date.now();
  expect(
    src.streamJsonl(
      'updates.jsonl',
      {},
      () => {},
      () => {},
    ).ok,
  ).toBe(false);
  const consumer = ChunkRing.attach(ring.shared);
  expect(consumer.next()).toBeUndefined();
  expect(consumer.producerGaveUp).toBe(true);
  expect(Date.now() - t).toBeLessThan(5000);
});

test("the consumer gets every chunk published before the producer's last word, whichever it was", () => {
  for (const last of ['close', 'abandon'] as const) {
    const ring = ChunkRing.create();
    const other = ChunkRing.attach(ring.shared);
    for (let i = 0; i < 3; i++) {
      ring.slot()![0] = i;
      ring.publish(1);
    }
    ring[last]();
    const seen: number[] = [];
    for (let c = other.next(); c; c = other.next()) {
      seen.push(c[0]!);
      other.release();
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(other.producerGaveUp).toBe(last === 'abandon');
  }
});

test(
  'a consumer waiting on the ring is released when the reader gives up, ' + 'and the reader when the consumer leaves',
  () => {
    const ring = ChunkRing.create();
    const other = ChunkRing.attach(ring.shared);
    ring.abandon();
    expect(other.next()).toBeUndefined();
    expect(other.producerGaveUp).toBe(true);
    const ring2 = ChunkRing.create();
    for (let i = 0; i < RING_SLOTS; i++) {
      expect(ring2.slot()).toBeDefined();
      ring2.publish(1);
    }
    ChunkRing.attach(ring2.shared).leave();
    expect(ring2.slot()).toBeUndefined();
  },
);
