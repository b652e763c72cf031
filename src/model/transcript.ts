/**
 * One entry of a session's transcript (`session-audit transcript`): what a reader sees, in the order the timeline
 * rebuilds, each with where it happened. `--format jsonl` writes these, one a line.
 */
import type { ResultStatus, TranscriptView } from './transcript-view.js';

/** Where an entry happened. */
export interface TranscriptAt {
  session: string;
  /** 0 for the session asked for, 1 for its subagents, and so on. */
  depth: number;
  file: string;
  line?: number;
  time?: string;
  /** A later rewind removed it from the live branch. */
  rewound?: boolean;
  /** It precedes the last compaction: the model now sees only a summary of it. */
  compacted?: boolean;
}

/** What the pairing says of a call that has no result to show it: no result is coming. */
export type CallFate = 'interrupted' | 'abandoned' | 'rewound';

export type TranscriptEntry =
  | { type: 'session'; at: TranscriptAt; agent: string; path: string; parent?: string }
  | {
      type: 'divider';
      at: TranscriptAt;
      what: 'resume' | 'compaction' | 'compacted' | 'rewind' | 'rewound' | 'live' | 'subagent' | 'file';
      text: string;
    }
  | { type: 'prompt' | 'reply' | 'thinking' | 'notice'; at: TranscriptAt; text: string }
  | { type: 'call'; at: TranscriptAt; id: string; view: TranscriptView; fate?: CallFate; note?: string }
  | {
      type: 'result';
      at: TranscriptAt;
      id: string;
      tool: string;
      status: ResultStatus;
      output: string;
      exitCode?: number;
    }
  | {
      type: 'finding';
      at: TranscriptAt;
      code: string;
      severity: 'error' | 'warning' | 'note';
      message: string;
      pointer?: string;
    };
