/**
 * Two checks of a per-cwd prompt_history.jsonl (home-artifacts.md §1.4) beyond what the shared judge does:
 * GPH-3, a human prompt of a session of that cwd group whose log holds it, sent while the history already covered
 * that time (not before its first line: the 10,000-entry cap drops the oldest), that no line of the history holds;
 * GPH-5, lines dated before the line above them. Both are notes: the cap, a history cut or deleted by hand, a failed
 * write (Grok only logs it, prompt_history.rs:105-113), several processes appending, clocks that differ.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';

export type CoverageCodes = 'GROK_PROMPT_HISTORY_LOG_PROMPT_ABSENT' | 'GROK_PROMPT_HISTORY_TIME_ORDER';

const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();
const iso = (ms: number): string => new Date(ms).toISOString();
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface HistoryFacts {
  /** Every prompt of the history, whatever session it names (a fork's log holds prompts of its origin). */
  prompts: Set<string>;
  firstMs?: number;
  /** The first line dated before the line above it, and how many are. */
  backwards?: { line: number; byteOffset: number; byteLength: number; ms: number; aboveMs: number };
  backwardsCount: number;
}

function readHistory(ctx: HomeCheckContext<CoverageCodes>, file: string): HistoryFacts | undefined {
  const facts: HistoryFacts = { prompts: new Set(), backwardsCount: 0 };
  let above: number | undefined;
  const read = ctx.source.streamJsonl(
    file,
    {},
    (r) => {
      const v = r.value;
      if (!isObj(v) || typeof v.prompt !== 'string') return;
      facts.prompts.add(norm(v.prompt));
      const ms = typeof v.timestamp === 'string' ? Date.parse(v.timestamp) : Number.NaN;
      if (!Number.isFinite(ms)) return;
      if (facts.firstMs === undefined || ms < facts.firstMs) facts.firstMs = ms;
      if (above !== undefined && ms < above) {
        facts.backwardsCount++;
        facts.backwards ??= { line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength, ms, aboveMs: above };
      }
      above = ms;
    },
    () => {},
  );
  return read.ok ? facts : undefined;
}

/** GPH-3 and GPH-5 for the history `file` of the cwd group `group`. */
export function judgeCoverage(ctx: HomeCheckContext<CoverageCodes>, file: string, group: string): void {
  const h = readHistory(ctx, file);
  if (!h) return;
  if (h.backwards)
    ctx.emit(
      'GROK_PROMPT_HISTORY_TIME_ORDER',
      { file, line: h.backwards.line, byteOffset: h.backwards.byteOffset, byteLength: h.backwards.byteLength },
      `${h.backwardsCount} line${h.backwardsCount === 1 ? ' is' : 's are'} of ${file} dated before the line above ` +
        `(the first, line ${h.backwards.line}, at ${iso(h.backwards.ms)}, after one at ${iso(h.backwards.aboveMs)}): ` +
        'Grok appends each line as the prompt is sent, so several Grok processes appended to it at once, or their ' +
        'clocks differ.',
      { key: 'order' },
    );
  if (h.firstMs === undefined) return;
  const since = h.firstMs;
  for (const [id, found] of [...ctx.sessions].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const here = found.filter((s) => s.groupName === group);
    if (!here.length) continue;
    // Prompts typed in a subagent are never written to the history.
    const ids = here.map((s) => ctx.identity?.(s));
    if (ids.some((i) => i?.kind?.startsWith('subagent'))) continue;
    // A fork's log begins with copies of its origin's prompts, which the origin's lines of the history hold.
    const forked = Math.max(...ids.map((i) => (i?.forkedAt !== undefined ? Date.parse(i.forkedAt) : Number.NaN)));
    const from = Number.isFinite(forked) ? Math.max(since, forked) : since;
    const absent: Array<{ line: number; text: string; ms: number }> = [];
    let checked = 0;
    for (const s of here)
      ctx.events(s, (e, r, text) => {
        if (e.kind !== 'user_prompt' || e.hostTurn === true || e.timeMs === undefined || e.timeMs < from) return;
        const t = norm(text());
        if (t === '') return;
        checked++;
        if (!h.prompts.has(t) && ![...h.prompts].some((p) => p.includes(t) || t.includes(p)))
          absent.push({ line: r.line, text: t, ms: e.timeMs });
      });
    if (!absent.length) continue;
    const first = absent[0]!;
    ctx.emit(
      'GROK_PROMPT_HISTORY_LOG_PROMPT_ABSENT',
      { file },
      `session ${id}: ${absent.length} of the ${checked} human prompts its log holds since the first line of ` +
        `${file} (${iso(since)}) are in no line of it (the first at line ${first.line} of its updates.jsonl, ` +
        `${iso(first.ms)}, "${excerpt(first.text)}"): Grok writes each human prompt there before handling it, so ` +
        'the history was cut or edited by hand, or its write failed (Grok only logs that).' +
        (from > since ? ` Prompts its log holds from before it was forked (${iso(from)}) are its origin's.` : ''),
      { key: id },
    );
  }
}

export const COVERAGE_CODES = {
  GROK_PROMPT_HISTORY_LOG_PROMPT_ABSENT: {
    severity: 'note',
    title: "A human prompt of a session's log is in no line of its cwd's prompt history.",
    help:
      'Grok Build appends every human prompt sent in a cwd (not those typed in subagents, nor host turns) to that ' +
      "cwd group's prompt_history.jsonl before it handles the prompt, and keeps the last 10,000. A prompt the " +
      "session's updates.jsonl holds, sent after the history's first line (so the cap did not drop it), that no " +
      'line of the history holds: the history was cut or edited by hand, or the write failed (Grok only logs a ' +
      "failed write). A prompt whose text differs only in white space counts as held; a fork's copies of its " +
      "origin's prompts (before its forked_at) are not looked for.",
  },
  GROK_PROMPT_HISTORY_TIME_ORDER: {
    severity: 'note',
    title: 'Prompt history lines are dated before the line above them.',
    help:
      'Grok Build appends a prompt_history.jsonl line as each prompt is sent, so times only grow down the file. ' +
      'A line dated before the one above it: several Grok processes appended to it at once, their clocks differ, ' +
      'or lines were moved by hand.',
  },
} as const;
