/**
 * Keeping memory flat on huge inputs. Parsing a log creates garbage at the rate of the file; V8 lets the old
 * generation grow well past what is live before it collects, so the peak resident size followed the file size.
 * Every 32 MiB read, if the heap holds much more than it did after the last collection (garbage, not live data),
 * a full collection is asked for: the peak stays near the live data plus a fixed slack, at the cost of a few
 * collections per gigabyte.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MB = 1024 * 1024;
const EVERY_BYTES = 32 * MB;
/** Collect when the heap holds this much more than it did after the last collection (live data grows too). */
const SLACK = 24 * MB;

let gc: (() => void) | undefined | null;
let sinceCheck = 0;
let liveAfterGc = 0;

function collector(): (() => void) | null {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  return gc;
}

/** Count bytes read; now and then, collect when the heap has grown past what a streaming audit keeps live. */
export function noteBytesRead(n: number): void {
  sinceCheck += n;
  if (sinceCheck < EVERY_BYTES) return;
  sinceCheck = 0;
  if (getHeapStatistics().used_heap_size < liveAfterGc + SLACK) return;
  const gcNow = collector();
  if (!gcNow) return;
  gcNow();
  liveAfterGc = getHeapStatistics().used_heap_size;
}
