/** The formats this build understands, tried in order. */
import type { FormatModule } from './types.js';
import { grok } from './grok/index.js';

export const FORMATS: readonly FormatModule[] = [grok];

/** Detector over all formats: a directory is a session if any format says so. */
export const detectAny = (names: readonly string[]): 'session' | 'descend' =>
  FORMATS.some((f) => f.detect(names) === 'session') ? 'session' : 'descend';

export function formatFor(names: readonly string[]): FormatModule {
  return FORMATS.find((f) => f.detect(names) === 'session') ?? FORMATS[0]!;
}
