/**
 * Whether a command's output is coloured: --color / --no-color, else FORCE_COLOR (on or off, a pipe included, never
 * an --output file), else on for a terminal unless NO_COLOR is set. A pipe gets no colour unless asked. Light: the
 * `checks` command reads it too.
 */
import type { Io } from './io.js';

export function useColor(
  flag: boolean | undefined,
  io: Pick<Io, 'isTTY' | 'noColor' | 'forceColor'>,
  toFile: boolean,
): boolean {
  if (flag !== undefined) return flag;
  if (toFile) return false;
  if (io.forceColor !== undefined) return io.forceColor;
  return io.isTTY && !io.noColor;
}
