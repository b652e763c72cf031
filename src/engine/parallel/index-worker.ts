/**
 * A worker thread of the index (index-facts.ts): reads the captures it is sent with `captureFacts`, in order, and
 * posts their events in batches, then their facts (or the error that stopped them). It counts what it posted in
 * shared memory and waits while this is more than MAX_QUEUED messages ahead of what the main thread took.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { CaptureRecord } from '../../store/record.js';
import {
  BATCH_CHARS,
  CELLS,
  EVENT_BATCH,
  GONE,
  MAX_QUEUED,
  pushEvent,
  POSTED,
  READY,
  STATE,
  TAKEN,
  type FactsMessage,
} from './index-facts.js';

const { store, ctl, port } = workerData as { store: string; ctl: Int32Array; port: MessagePort };

const gone = (): void => {
  Atomics.store(ctl, STATE, GONE);
  Atomics.notify(ctl, POSTED);
  Atomics.notify(ctl, STATE);
};
// An exit of any kind (an error thrown outside a capture, process.exit) is seen by the main thread at once.
process.on('exit', gone);

function post(m: FactsMessage): void {
  port.postMessage(m);
  const posted = Atomics.add(ctl, POSTED, 1) + 1;
  Atomics.notify(ctl, POSTED);
  for (let taken = Atomics.load(ctl, TAKEN); posted - taken > MAX_QUEUED; taken = Atomics.load(ctl, TAKEN))
    Atomics.wait(ctl, TAKEN, taken, 1000);
}

try {
  const { captureFacts } = await import('../index/extract.js');
  const fault = process.env.SESSION_AUDIT_INDEX_WORKER_FAULT;
  parentPort!.on('message', (rec: CaptureRecord) => {
    // A test's stand-ins for a crash (a thread that dies without a word) and for a thread that never answers.
    if (fault === 'exit') process.exit(3);
    if (fault === 'hang') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    let batch: unknown[] = [];
    let chars = 0;
    try {
      const facts = captureFacts(store, rec, (e) => {
        pushEvent(batch, e);
        chars += e.text.length;
        if (batch.length < EVENT_BATCH * CELLS && chars < BATCH_CHARS) return;
        post({ seq: rec.seq, events: batch });
        batch = [];
        chars = 0;
      });
      if (batch.length) post({ seq: rec.seq, events: batch });
      post({ seq: rec.seq, facts });
    } catch (e) {
      post({ seq: rec.seq, error: String((e as Error | undefined)?.message) });
    }
  });
  Atomics.store(ctl, STATE, READY);
  Atomics.notify(ctl, STATE);
} catch {
  gone();
}
