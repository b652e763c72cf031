/** `--help`: the program's command list, and each command's arguments, options, examples and exit codes. */
import { wrapLines } from '../report/wrap.js';
import type { CommandSpec, HelpFacts, OptionSpec, Text } from './spec.js';

const text = (t: Text, facts: HelpFacts): string => (typeof t === 'string' ? t : t(facts));

/** `  left   right…` with the right side wrapped under itself. */
function twoColumns(rows: ReadonlyArray<[string, string]>, width: number, indent = 2): string[] {
  const leftW = Math.min(30, Math.max(...rows.map(([l]) => l.length)) + 2);
  const rightW = Math.max(30, width - indent - leftW);
  const out: string[] = [];
  for (const [l, r] of rows) {
    const lines = wrapLines(r, rightW);
    if (l.length + 2 > leftW) {
      out.push(' '.repeat(indent) + l);
      for (const line of lines) out.push(' '.repeat(indent + leftW) + line);
      continue;
    }
    out.push(' '.repeat(indent) + l.padEnd(leftW) + (lines[0] ?? ''));
    for (const line of lines.slice(1)) out.push(' '.repeat(indent + leftW) + line);
  }
  return out;
}

function optionLabel(o: OptionSpec): string {
  const value = o.type === 'boolean' ? '' : ` ${o.value ?? (o.type === 'number' ? 'N' : 'VALUE')}`;
  const long =
    o.type === 'boolean' && o.name === 'color' ? '--color, --no-color' : o.offSwitch ? `--no-${o.name}` : `--${o.name}`;
  return `${o.alias ? `-${o.alias}, ` : '    '}${long}${value}`;
}

export function usageLine(spec: CommandSpec): string {
  const pos = spec.positionals.map((p) => {
    const name = `<${p.name}${p.variadic ? '..' : ''}>`;
    return p.required ? name : `[${name}]`;
  });
  return `session-audit ${spec.name}${pos.length ? ` ${pos.join(' ')}` : ''}${spec.options.length ? ' [options]' : ''}`;
}

export function commandHelp(spec: CommandSpec, facts: HelpFacts, columns: number): string {
  const width = Math.max(60, Math.min(columns, 110));
  const out: string[] = [`Usage: ${usageLine(spec)}`, ''];
  out.push(...wrapLines(`${spec.summary[0]!.toUpperCase()}${spec.summary.slice(1)}.`, width));
  if (spec.description) out.push('', ...wrapLines(text(spec.description, facts), width));
  if (spec.positionals.length) {
    out.push('', 'Arguments:');
    out.push(
      ...twoColumns(
        spec.positionals.map((p) => [p.name, text(p.describe, facts)]),
        width,
      ),
    );
  }
  const options = spec.options.filter((o) => !o.deprecated);
  out.push('', 'Options:');
  out.push(
    ...twoColumns(
      [
        ...options.map((o): [string, string] => [
          optionLabel(o),
          text(o.describe, facts) + (o.multiple ? ' (repeatable)' : ''),
        ]),
        ['-h, --help', 'show this help'],
      ],
      width,
    ),
  );
  if (spec.examples.length) {
    out.push('', 'Examples:');
    for (const [cmd, what] of spec.examples) {
      out.push(`  ${cmd}`);
      for (const line of wrapLines(what, width - 6)) out.push(`      ${line}`);
    }
  }
  out.push('', 'Exit codes:');
  out.push(
    ...twoColumns(
      spec.exitCodes.map(([c, m]) => [String(c), m]),
      width,
    ),
  );
  return `${out.join('\n')}\n`;
}

export function programHelp(commands: readonly CommandSpec[], version: string, columns: number): string {
  const width = Math.max(60, Math.min(columns, 110));
  const out = [
    'Usage: session-audit <command> [options]',
    '',
    ...wrapLines(
      "Offline forensic auditor for AI coding agents' session directories: what is torn, merged, missing, " +
        'malformed or contradictory, with exact file, line and byte locations. Evidence is only ever read.',
      width,
    ),
    '',
    'Commands:',
    ...twoColumns(
      commands.map((c) => [c.name, c.summary]),
      width,
    ),
    '',
    'Options:',
    ...twoColumns(
      [
        ['-h, --help', 'show this help; `session-audit <command> --help` shows a command’s options and examples'],
        ['--version', `print the version (${version})`],
      ],
      width,
    ),
    '',
    'Examples:',
    '  session-audit audit ~/.grok/sessions',
    '  session-audit audit artifacts/sessions --format sarif -o session-audit.sarif',
    '  session-audit timeline <session> --format jsonl > timeline.jsonl',
    '  session-audit checks JSONL_MERGED_LINE',
    '',
    'Exit codes (every command):',
    ...twoColumns(
      [
        ['0', 'done, and no finding at or above --fail-on (for the commands that gate)'],
        ['1', 'findings at or above --fail-on (audit, validate, merge, inspect, verify)'],
        ['2', 'unusable arguments, paths or output (one line on stderr names the problem)'],
        ['3', 'an internal error of session-audit (please report it)'],
      ],
      width,
    ),
    '',
    ...wrapLines(
      'A closed standard output (`| head`) ends a run quietly with the exit code its findings call for.',
      width,
    ),
  ];
  return `${out.join('\n')}\n`;
}
