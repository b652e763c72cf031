/** The inspect report for a terminal: sections a reviewer reads top to bottom; all session content escaped. */
import type { InspectReport, InspectView } from '../inspect/report.js';
import { escapeText } from './escape.js';
import { formatLocation } from './human.js';
import { colors } from './ansi.js';
import { wrapText } from './wrap.js';

const STATE: Record<InspectReport['state'], string> = {
  completed: 'the last turn completed',
  cancelled: 'the last turn was cancelled by the user',
  'ended-with-error': 'the last turn ended with an error',
  interrupted: 'INTERRUPTED: the last turn never completed (crash, kill or signal)',
  'no-turns': 'no prompt turn was ever recorded',
};

export function renderInspect(view: InspectView, opts: { color: boolean; width: number }): string {
  const r = view.report;
  const c = colors(opts.color);
  const w = Math.max(40, Math.min(opts.width, 120));
  const e = (s: string): string => escapeText(s);
  const para = (s: string, indent = '  '): string =>
    wrapText(e(s), w - indent.length)
      .split('\n')
      .map((l) => indent + l)
      .join('\n');
  const out: string[] = [];
  const s = r.session;
  out.push(c.bold(`Session ${e(s.id)}`), `  ${e(s.path)}`);
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
          `${t.file}:${t.line}${t.startedAt ? `, ${t.startedAt}` : ''}:`,
      ),
    );
    out.push(para(JSON.stringify(t.prompt), '    '));
    out.push(
      para(
        t.end
          ? `ended ${t.end.stopReason ?? '?'} at ${t.end.file}:${t.end.line}${t.end.at ? `, ${t.end.at}` : ''}`
          : 'no turn_completed follows it',
      ),
    );
  }
  if (r.lastChatPrompt)
    out.push(
      para(
        `last prompt the model saw: ${r.lastChatPrompt.file}:${r.lastChatPrompt.line} ` +
          `${JSON.stringify(r.lastChatPrompt.text.slice(0, 100))}`,
      ),
    );
  if (r.lostPrompt)
    out.push(
      c.yellow(
        `  a later prompt on a damaged line (skipped on load, never seen): ${e(r.lostPrompt.file)}:` +
          `${r.lostPrompt.line} ${e(JSON.stringify(r.lostPrompt.text.slice(0, 100)))}`,
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
      p.call && `called at ${formatLocation(p.call)}`,
      p.logCall && `logged at ${formatLocation(p.logCall)}`,
    ]
      .filter(Boolean)
      .join(', ');
    if (where) out.push(para(where, '      '));
  }
  out.push('', c.bold(`Subagents still running (${r.subagentsRunning.length})`));
  if (!r.subagentsRunning.length) out.push('  none');
  for (const a of r.subagentsRunning) out.push(para(`${a.id}: ${a.why} (${a.file}${a.line ? `:${a.line}` : ''})`));

  out.push('', c.bold('What a resume replays'));
  for (const line of view.replay) out.push(para(line));

  // The warnings come before the command: read them first.
  if (r.warnings.length) {
    out.push('', c.bold(c.yellow('Before resuming')));
    for (const wn of r.warnings) out.push(para(`! ${wn}`));
  }
  out.push('', c.bold('Resume'), `  ${c.cyan(e(r.resume.command))}`, para(r.resume.sandbox));
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
  for (const x of top) out.push(para(`${x.severity} ${x.code} ${formatLocation(x.location)}: ${x.message}`, '    '));
  return `${out.join('\n')}\n`;
}
