/**
 * A session whose log is gone, as `timeline` and `transcript` show it: only what the agent's own files still hold
 * (its prompts, with their times; the agent's replies where a file keeps them, as Copilot CLI's store does), each
 * event marked as recalled from the file that holds it, and a notice that the rest (tool calls and results, and
 * the replies where no file keeps them) is not known.
 */
import type { RecalledEntry } from '../checks/define-home.js';
import type { TranscriptEntry } from '../model/transcript.js';
import { plural } from '../report/human.js';
import type { TimelineEvent } from '../timeline/model.js';
import type { RecalledSession } from './session-by-id.js';

const isoTime = (ms: number | undefined): string | undefined =>
  ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();

const firstLine = (s: string): string => {
  const line = s.split('\n', 1)[0]!;
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
};

/** The entries in time order (the files' order where a time is missing or equal). */
function ordered(g: RecalledSession): RecalledEntry[] {
  return g.entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (a.e.timeMs ?? 0) - (b.e.timeMs ?? 0) || a.i - b.i)
    .map((x) => x.e);
}

const where = (g: RecalledSession, file: string): string => `${g.home.display}/${file}`;

/**
 * One entry of a home's file as a timeline event of the session it names, marked as recalled from `where` (the
 * file's path as shown); `promptIndex` numbers the session's prompts (a reply has its prompt's).
 */
export function recalledEvent(e: RecalledEntry, where: string, promptIndex?: number): TimelineEvent {
  const time = isoTime(e.timeMs);
  const ev: TimelineEvent = {
    session: e.session,
    depth: 0,
    file: e.file,
    line: e.line ?? 1,
    byteOffset: e.byteOffset ?? 0,
    time: time ?? null,
    timeMs: time === undefined ? null : e.timeMs!,
    timeSource: time === undefined ? 'none' : 'line',
    rail: 'recalled',
    kind: e.kind === 'user_prompt' ? 'user_prompt' : e.kind === 'reply' ? 'model_text' : 'notice',
    tag: e.file,
    summary: `recalled from ${e.file}: ${firstLine(e.text)}`,
    text: e.text,
    rewound: false,
    compacted: false,
    displaced: false,
    recalled: where,
  };
  if (e.row !== undefined) ev.row = e.row;
  if (e.kind !== 'note' && promptIndex !== undefined) ev.promptIndex = promptIndex;
  return ev;
}

export function recalledTimeline(g: RecalledSession, onEvent: (e: TimelineEvent) => void): void {
  let prompts = 0;
  for (const e of ordered(g)) {
    onEvent(recalledEvent({ ...e, session: g.id }, where(g, e.file), promptIndexOf(e, prompts)));
    if (e.kind === 'user_prompt') prompts++;
  }
}

/**
 * The prompt index of a recalled entry after `prompts` prompts of its session: its own for a prompt, its prompt's
 * for a reply, none for a note.
 */
export const promptIndexOf = (e: RecalledEntry, prompts: number): number | undefined =>
  e.kind === 'user_prompt' ? prompts : e.kind === 'reply' && prompts > 0 ? prompts - 1 : undefined;

/** The sentence that opens a recalled session's transcript. */
export function recalledNotice(g: RecalledSession): string {
  const prompts = g.entries.filter((e) => e.kind === 'user_prompt').length;
  const replies = g.entries.filter((e) => e.kind === 'reply').length;
  const held = `${plural(prompts, 'prompt')}${replies ? `, ${replies} ${replies === 1 ? 'reply' : 'replies'}` : ''}`;
  return (
    `The log of session ${g.id} is not in ${g.home.display}: what follows is what ${g.files.join(' and ')} still ` +
    `hold${g.files.length === 1 ? 's' : ''} of it (${held}), recalled from the agent's own files. ` +
    (replies
      ? "The agent's tool calls and their results are not shown: they were in the log"
      : "The agent's replies, its tool calls and their results are not shown: they were in the log") +
    // Replies a file kept as text of their own (a search index's row) are in a note; kept as replies, they are shown.
    (!replies && g.entries.some((e) => e.kind === 'note')
      ? ' (a note quotes what a file kept beside the prompts, as it kept it: a search index keeps replies as text).'
      : '.')
  );
}

export function recalledTranscript(g: RecalledSession, onEntry: (e: TranscriptEntry) => void): void {
  const at = (e?: RecalledEntry) => ({
    session: g.id,
    depth: 0,
    file: e ? where(g, e.file) : where(g, g.files[0]!),
    ...(e?.line !== undefined ? { line: e.line } : {}),
    ...(isoTime(e?.timeMs) !== undefined ? { time: isoTime(e?.timeMs)! } : {}),
  });
  onEntry({ type: 'session', at: at(), agent: g.format, path: g.files.map((f) => where(g, f)).join(', ') });
  onEntry({ type: 'notice', at: at(), text: recalledNotice(g) });
  for (const e of ordered(g))
    onEntry(
      e.kind === 'user_prompt'
        ? { type: 'prompt', at: at(e), text: e.text }
        : e.kind === 'reply'
          ? { type: 'reply', at: at(e), text: e.text }
          : { type: 'notice', at: at(e), text: `recorded in ${e.file}:${e.text.includes('\n') ? '\n' : ' '}${e.text}` },
    );
}
