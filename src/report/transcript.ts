/**
 * The transcript's writers, streamed: each takes entries one at a time and writes as it goes (terminal, Markdown,
 * HTML, JSONL), so a session of a million lines costs one entry of memory.
 */
import type { TranscriptEntry } from '../model/transcript.js';
import { DEFAULT_MAX_LINES, type BlockOptions } from './transcript-blocks.js';
import type { TranscriptFormat } from './transcript-formats.js';
import { htmlEnd, htmlEntry, htmlStart } from './transcript-html.js';
import { markdownEntry } from './transcript-markdown.js';
import { terminalEntry } from './transcript-terminal.js';

export { TRANSCRIPT_FORMATS, type TranscriptFormat } from './transcript-formats.js';
export { DEFAULT_MAX_LINES };

export interface TranscriptWriter {
  entry(e: TranscriptEntry): void;
  end(): void;
}

export interface TranscriptWriterOptions {
  width: number;
  color: boolean;
  /** Everything: no output cut. */
  full: boolean;
  thinking: boolean;
  /** The page's title (html). */
  title: string;
}

export function transcriptWriter(
  format: TranscriptFormat,
  out: (s: string) => void,
  o: TranscriptWriterOptions,
): TranscriptWriter {
  const bo: BlockOptions = { maxLines: o.full ? 0 : DEFAULT_MAX_LINES, thinking: o.thinking };
  switch (format) {
    case 'jsonl':
      // Data: every output whole; thinking only when asked.
      return {
        entry: (e) => {
          if (e.type === 'thinking' && !o.thinking) out(`${JSON.stringify({ ...e, text: undefined, folded: true })}\n`);
          else out(`${JSON.stringify(e)}\n`);
        },
        end: () => {},
      };
    case 'markdown':
      return { entry: (e) => out(markdownEntry(e, bo)), end: () => {} };
    case 'html': {
      let started = false;
      const start = (): void => {
        if (!started) out(htmlStart(o.title));
        started = true;
      };
      return {
        entry: (e) => {
          start();
          out(htmlEntry(e, bo));
        },
        end: () => {
          start();
          out(htmlEnd());
        },
      };
    }
    default:
      return { entry: (e) => out(terminalEntry(e, { ...bo, width: o.width, color: o.color })), end: () => {} };
  }
}
