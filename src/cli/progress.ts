/**
 * A one-line progress bar on stderr (terminals only, never in pipes or CI), redrawn at most 10 times a second.
 * The time left is estimated from the pace since the first session finished (start-up and discovery are not
 * auditing time), and only once that pace has been seen for half a second.
 */
import type { Io } from './io.js';

const ETA_AFTER_MS = 500;

export function progressBar(io: Io, label: string): { tick: (done: number, total: number) => void; end: () => void } {
  if (!io.progress) return { tick: () => {}, end: () => {} };
  let last = 0;
  let drawn = false;
  let first: { at: number; done: number } | undefined;
  const width = Math.max(10, Math.min(40, io.columns - 60));
  return {
    tick(done, total) {
      const now = Date.now();
      first ??= { at: now, done };
      if (total < 2 || (done < total && now - last < 100)) return;
      last = now;
      const frac = done / total;
      const filled = Math.round(frac * width);
      const ms = now - first.at;
      const pace = ms >= ETA_AFTER_MS && done > first.done ? ms / (done - first.done) : undefined;
      const eta = pace !== undefined && done < total ? ` ~${Math.ceil((pace * (total - done)) / 1000)}s left` : '';
      io.stderr(
        `\r\u001b[2K${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} sessions${eta}`,
      );
      drawn = true;
    },
    end() {
      if (drawn) io.stderr('\r\u001b[2K');
    },
  };
}
