/**
 * A ring of read buffers in shared memory: one thread reads a file into it, another consumes the same bytes.
 * This is how a large log reaches the schema worker: the worker hashes and validates exactly the bytes the loader
 * parsed (no second read of a file that may be changing), and the file is read from disk once.
 *
 * Single producer, single consumer. The producer waits for a free slot when the consumer is `SLOTS` chunks behind
 * (so memory stays at SLOTS × SLOT_BYTES); either side gives up on the other after a stall and says so, and
 * neither ever blocks for good.
 */
export const RING_SLOTS = 8;
export const RING_SLOT_BYTES = 1 << 20;

/** ctrl indices. */
const WRITTEN = 0; // chunks published by the producer
const CONSUMED = 1; // chunks released by the consumer
const PRODUCER = 2; // 0 reading, 1 finished, 2 gave up (the consumer must stop)
const CONSUMER = 3; // 0 running, 2 gave up or failed (the producer must stop publishing)
const LENGTHS = 4; // RING_SLOTS slot lengths

/** How long one side waits without the other making progress before it gives up on it. */
export const STALL_MS = 15_000;

export class ChunkRing {
  readonly ctrl: Int32Array;
  private readonly data: Buffer;

  private constructor(readonly shared: SharedArrayBuffer) {
    this.ctrl = new Int32Array(shared, 0, LENGTHS + RING_SLOTS);
    this.data = Buffer.from(shared, (LENGTHS + RING_SLOTS) * 4, RING_SLOTS * RING_SLOT_BYTES);
  }

  static create(): ChunkRing {
    return new ChunkRing(new SharedArrayBuffer((LENGTHS + RING_SLOTS) * 4 + RING_SLOTS * RING_SLOT_BYTES));
  }

  /** The consumer's side of a ring created in another thread. */
  static attach(shared: SharedArrayBuffer): ChunkRing {
    return new ChunkRing(shared);
  }

  private view(i: number, length: number): Buffer {
    const at = (i % RING_SLOTS) * RING_SLOT_BYTES;
    return this.data.subarray(at, at + length);
  }

  /** Producer: the next slot to read into, once the consumer has released it; undefined once the consumer is gone. */
  slot(): Buffer | undefined {
    const written = Atomics.load(this.ctrl, WRITTEN);
    let consumed = Atomics.load(this.ctrl, CONSUMED);
    let since = Date.now();
    while (written - consumed >= RING_SLOTS) {
      if (Atomics.load(this.ctrl, CONSUMER) !== 0) return undefined;
      Atomics.wait(this.ctrl, CONSUMED, consumed, 100);
      const now = Atomics.load(this.ctrl, CONSUMED);
      if (now !== consumed) {
        consumed = now;
        since = Date.now();
      } else if (Date.now() - since > STALL_MS) {
        this.abandon();
        return undefined;
      }
    }
    return Atomics.load(this.ctrl, CONSUMER) !== 0 ? undefined : this.view(written, RING_SLOT_BYTES);
  }

  /** Producer: the slot from `slot()` now holds `n` bytes. */
  publish(n: number): void {
    const written = Atomics.load(this.ctrl, WRITTEN);
    Atomics.store(this.ctrl, LENGTHS + (written % RING_SLOTS), n);
    Atomics.store(this.ctrl, WRITTEN, written + 1);
    Atomics.notify(this.ctrl, WRITTEN);
  }

  /** Producer: the end of the file (or of the read) was reached. */
  close(): void {
    Atomics.store(this.ctrl, PRODUCER, 1);
    Atomics.notify(this.ctrl, WRITTEN);
  }

  /** Producer: stop; the consumer must not wait for more. */
  abandon(): void {
    Atomics.store(this.ctrl, PRODUCER, 2);
    Atomics.notify(this.ctrl, WRITTEN);
  }

  get producerGaveUp(): boolean {
    return Atomics.load(this.ctrl, PRODUCER) === 2;
  }

  get consumerGone(): boolean {
    return Atomics.load(this.ctrl, CONSUMER) !== 0;
  }

  /**
   * Consumer: the next published chunk (valid until `release()`), or undefined when no more will come: the end
   * of the file, or the producer gave up (`producerGaveUp` tells which). Throws when the producer stalls.
   */
  next(): Buffer | undefined {
    const consumed = Atomics.load(this.ctrl, CONSUMED);
    let since = Date.now();
    for (;;) {
      const written = Atomics.load(this.ctrl, WRITTEN);
      if (written > consumed) return this.view(consumed, Atomics.load(this.ctrl, LENGTHS + (consumed % RING_SLOTS)));
      if (Atomics.load(this.ctrl, PRODUCER) !== 0) {
        // A chunk published just before the producer's last word is still to be consumed.
        if (Atomics.load(this.ctrl, WRITTEN) > consumed) continue;
        return undefined;
      }
      if (Atomics.wait(this.ctrl, WRITTEN, written, 100) === 'timed-out' && Date.now() - since > STALL_MS)
        throw new Error('the loader stalled');
      if (Atomics.load(this.ctrl, WRITTEN) !== written) since = Date.now();
    }
  }

  /** Consumer: done with the chunk from `next()`. */
  release(): void {
    Atomics.add(this.ctrl, CONSUMED, 1);
    Atomics.notify(this.ctrl, CONSUMED);
  }

  /** Consumer: stop; the producer must not wait for it. */
  leave(): void {
    Atomics.store(this.ctrl, CONSUMER, 2);
    Atomics.notify(this.ctrl, CONSUMED);
  }
}
