/** A one-line progress bar on stderr (terminals only, never in pipes or CI), redrawn at most 10 times a second. */
import type { Io } from './io.js';

export function progressBar(io: Io, label: string): { tick: (done: number, total: number) => void; end: () => void } {
  if (!io.progress) return { tick: () => {}, end: () => {} };
  let last = 0;
  let drawn = false;
  const start = Date.now();
  const width = Math.max(10, Math.min(40, io.columns - 60));
  return {
    tick(done, total) {
      const now = Date.now();
      if (total < 2 || (done < total && now - last < 100)) return;
      last = now;
      const frac = done / total;
      const filled = Math.round(frac * width);
      const secs = (now - start) / 1000;
      const eta = done > 0 && done < total ? ` ~${Math.ceil((secs / done) * (total - done))}s left` : '';
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
