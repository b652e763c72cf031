/** The inspect report for a terminal: sections a reviewer reads top to bottom; all session content escaped. */
import type { InspectReport, InspectView } from '../inspect/report.js';
import { escapeText } from './escape.js';
import { formatLocation } from './human.js';
import { colors } from './ansi.js';
import { homeViewLines } from './home-view-text.js';
import { displayWidth } from './width.js';
import { wrapText } from './wrap.js';

const STATE: Record<InspectReport['state'], string> = {
  completed: 'the last turn completed',
  cancelled: 'the last turn was cancelled by the user',
  'ended-with-error': 'the last turn ended with an error',
  interrupted: 'INTERRUPTED: the last turn never completed (crash, kill or signal)',
  'no-turns': 'no prompt turn was ever recorded',
};

/**
 * A shell command in lines of at most `w` columns: broken only at a space outside quotes, each line but the last
 * ending in ` \` (a POSIX shell joins them again), the lines after the first indented by `more`. A word wider than
 * the width stays whole on its line.
 */
export function shellLines(cmd: string, w: number, more = '    '): string[] {
  const words: string[] = [];
  let cur = '';
  let quote = '';
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i]!;
    if (quote) {
      if (ch === quote) quote = '';
      else if (ch === '\\' && quote === '"') cur += cmd[i++] ?? '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\\') cur += cmd[i++] ?? '';
    else if (ch === ' ') {
      if (cur) words.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur) words.push(cur);
  if (displayWidth(cmd) <= w) return [cmd];
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const room = w - 2 - (lines.length ? more.length : 0);
    if (line && displayWidth(line) + 1 + displayWidth(word) > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l, i) => `${i ? more : ''}${l}${i < lines.length - 1 ? ' \\' : ''}`);
}

export function renderInspect(
  view: InspectView,
  opts: {
    color: boolean;
    width: number /** The file the session's path names (see cli/title-file.ts). */;
    title?: string;
  },
): string {
  const r = view.report;
  const c = colors(opts.color);
  const w = Math.max(40, Math.min(opts.width, 120));
  const e = (s: string): string => escapeText(s);
  // A word wider than the room (a path) is on a line of its own: indented only if it fits so.
  const para = (s: string, indent = '  '): string =>
    wrapText(e(s), w - indent.length)
      .split('\n')
      .map((l) => (displayWidth(l) + indent.length <= w ? indent + l : l))
      .join('\n');
  const at = (file: string, line?: number): string =>
    formatLocation(line !== undefined ? { file, line } : { file }, opts.title);
  const out: string[] = [];
  const s = r.session;
  // The path whole, indented when it fits so.
  out.push(c.bold(`Session ${e(s.id)}`), displayWidth(e(s.path)) + 2 <= w ? `  ${e(s.path)}` : e(s.path));
  const facts: Array<[string, string | undefined]> = [
    ['cwd', s.cwd],
    ['sandbox', s.sandboxProfile ?? '(none recorded)'],
    ['kind', s.sessionKind],
    ['model', s.model],
    ['created', s.createdAt],
    ['updated', s.updatedAt],
  ];
  for (const [k, v] of facts) if (v !== undefined) out.push(para(`${k.padEnd(8)} ${v}`));
  const state = para(STATE[r.state]);
  out.push('', c.bold('State'), r.state === 'interrupted' ? c.redBold(state) : state);
  if (r.lastTurn) {
    const t = r.lastTurn;
    out.push(
      para(
        `last prompt turn${t.promptIndex !== undefined ? ` #${t.promptIndex}` : ''} at ` +
          `${at(t.file, t.line)}${t.startedAt ? `, ${t.startedAt}` : ''}:`,
      ),
    );
    out.push(para(JSON.stringify(t.prompt), '    '));
    out.push(
      para(
        t.end
          ? `ended ${t.end.stopReason ?? '?'} at ${at(t.end.file, t.end.line)}${t.end.at ? `, ${t.end.at}` : ''}`
          : 'no turn_completed follows it',
      ),
    );
  }
  if (r.lastChatPrompt)
    out.push(
      para(
        `last prompt the model saw: ${at(r.lastChatPrompt.file, r.lastChatPrompt.line)} ` +
          `${JSON.stringify(r.lastChatPrompt.text.slice(0, 100))}`,
      ),
    );
  if (r.lostPrompt)
    out.push(
      c.yellow(
        para(
          'a later prompt on a damaged line (skipped on load, never seen): ' +
            `${at(r.lostPrompt.file, r.lostPrompt.line)} ` +
            `${JSON.stringify(r.lostPrompt.text.slice(0, 100))}`,
        ),
      ),
    );

  out.push('', c.bold(`Tool calls in flight (${r.inFlight.length})`));
  if (!r.inFlight.length) out.push('  none');
  for (const p of r.inFlight) {
    const tag = p.mutating ? c.red('MAY MUTATE') : c.green('read-only');
    const label = wrapText(`${e(p.name || '?')} (${e(p.id)}${p.kind ? `, ${e(p.kind)}` : ''})  ${e(p.status)}`, w - 14);
    out.push(`  ${tag}  ${label.split('\n').join(`\n${' '.repeat(14)}`)}`);
    if (p.args) out.push(para(`arguments: ${p.args}`, '      '));
    const where = [
      p.call && `called at ${formatLocation(p.call, opts.title)}`,
      p.logCall && `logged at ${formatLocation(p.logCall, opts.title)}`,
    ]
      .filter(Boolean)
      .join(', ');
    if (where) out.push(para(where, '      '));
  }
  out.push('', c.bold(`Subagents still running (${r.subagentsRunning.length})`));
  if (!r.subagentsRunning.length) out.push('  none');
  for (const a of r.subagentsRunning) out.push(para(`${a.id}: ${a.why} (${at(a.file, a.line || undefined)})`));

  // What the agent's home ties to the session: its project's grants apply to a resumed session too.
  if (r.home)
    out.push('', c.bold("Beside the log, in the agent's home"), para(r.home.home), ...homeViewLines(r.home, w));

  out.push('', c.bold('What a resume replays'));
  for (const line of view.replay) out.push(para(line));

  // The warnings come before the command: read them first.
  if (r.warnings.length) {
    out.push('', c.bold(c.yellow('Before resuming')));
    for (const wn of r.warnings) out.push(para(`! ${wn}`));
  }
  out.push('', c.bold('Resume'), ...shellLines(e(r.resume.command), w - 2).map((l) => `  ${c.cyan(l)}`));
  out.push(para(r.resume.sandbox));
  out.push(
    para(
      r.safeToResume
        ? 'Safe to resume as far as the files tell (exit 0 or 1).'
        : `Not safe to resume (exit 4): ${r.notSafe.map(e).join('; ')}.`,
    ),
  );
  const f = r.findings;
  const top = f.list.filter((x) => x.severity !== 'note').slice(0, 12);
  out.push(
    '',
    c.bold('Audit'),
    para(`${f.error} error(s), ${f.warning} warning(s), ${f.note} note(s)${top.length ? ':' : ''}`),
  );
  if (f.list.length > top.length)
    out.push(para(`(${f.list.length - top.length} more: session-audit audit ${r.session.path})`));
  for (const x of top)
    out.push(para(`${x.severity} ${x.code} ${formatLocation(x.location, opts.title)}: ${x.message}`, '    '));
  return `${out.join('\n')}\n`;
}
