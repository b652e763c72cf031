/**
 * The argument parser: yargs, with every command defined from its data (yargs-commands.ts), strict, and quiet: its
 * failures become the tool's one-line usage errors naming the command's help (an option the command does not
 * take, a missing value, a number that is not one, an argument too many). `--name value`, `--name=value`,
 * `-x value`, `--flag`, `--no-flag`, `--flag=false`, repeatable options, `--` ending the options. yargs is loaded
 * here only, when a command runs: `--version` and `--help` never load it.
 */
import { UsageError } from '../errors.js';
import { COMMANDS } from './commands/index.js';
import type { CommandSpec, OptionSpec, OptionValue, ParsedArgs } from './spec.js';
import { yargsCommand } from './yargs-commands.js';

const seeHelp = (spec: CommandSpec): string => `(see session-audit ${spec.name} --help)`;

export interface Parsed extends ParsedArgs {
  /** Deprecated spellings used, each with its replacement. */
  deprecated: Array<{ used: string; use: string }>;
}

/** yargs' messages, as markers this parser turns into its own (the words are the tool's, not the library's). */
const MARK = '\u0000';
const STRINGS = {
  'Unknown argument: %s': { one: `unknown${MARK}%s`, other: `unknown${MARK}%s` },
  'Not enough arguments following: %s': `value${MARK}%s`,
};

const looksLikeOption = (s: string): boolean => s.startsWith('-') && s.length > 1 && !/^-\d/.test(s);

/**
 * `-` and `-5` are arguments (a path, a value), not options: yargs would drop the first and read the second as an
 * option named 5, so they reach it behind a marker that comes off again in its result.
 */
const KEEP = '\u0001';
const kept = (a: string): string => (a.startsWith('-') && !looksLikeOption(a) ? KEEP + a : a);
const unkept = (a: string): string => (a.startsWith(KEEP) ? a.slice(1) : a);

/** How the user wrote an option (`--name`, `-n`), from the arguments: messages quote what was typed. */
function typed(argv: readonly string[], o: OptionSpec | undefined, name: string): string {
  for (const a of argv) {
    if (!looksLikeOption(a)) continue;
    const key = a.startsWith('--') ? a.slice(2).split('=')[0]! : a.slice(1).split('=')[0]!;
    if (key === name || (o && (key === o.name || key === o.alias || key === `no-${o.name}`)))
      return a.startsWith('--') ? `--${key}` : `-${key}`;
  }
  return name.length === 1 ? `-${name}` : `--${name}`;
}

/** yargs' failure, as the tool's one-line usage error. */
function usageError(spec: CommandSpec, head: readonly string[], message: string): UsageError {
  const [kind, what = ''] = message.split(MARK);
  if (kind === 'value') {
    const o = spec.options.find((x) => x.name === what || x.alias === what);
    return new UsageError(`${typed(head, o, what)} needs a value${o?.value ? ` (${o.value})` : ''} ${seeHelp(spec)}`);
  }
  if (kind === 'unknown') {
    // The first name yargs did not know, as typed: an option, or an argument the command does not take.
    const first = what.split(', ')[0]!;
    const option = head.find((a) => looksLikeOption(a) && a.replace(/^--?/, '').split('=')[0] === first);
    if (option !== undefined)
      return new UsageError(`unknown option ${option.split('=')[0]} for ${spec.name} ${seeHelp(spec)}`);
    return new UsageError(`${spec.name}: unexpected argument ${JSON.stringify(unkept(first))} ${seeHelp(spec)}`);
  }
  return new UsageError(`${spec.name}: ${message} ${seeHelp(spec)}`);
}

/** `--flag=maybe` is not a yes or a no (yargs would read it as false). */
function checkBooleans(spec: CommandSpec, head: readonly string[]): void {
  for (const a of head) {
    const m = /^(--?)([^=]+)=(.*)$/.exec(a);
    if (!m) continue;
    const o = spec.options.find((x) => (m[1] === '--' ? x.name === m[2] : x.alias === m[2]));
    if (o?.type === 'boolean' && m[3] !== 'true' && m[3] !== 'false')
      throw new UsageError(`${m[1]}${m[2]}=${m[3]}: expected true or false ${seeHelp(spec)}`);
  }
}

/** One option's value as the command reads it: a number checked, a repeated single option's last value. */
function optionValue(spec: CommandSpec, head: readonly string[], o: OptionSpec, raw: unknown): OptionValue {
  const shown = typed(head, o, o.name);
  if (o.type === 'boolean') return raw as boolean;
  // `--no-output`: only a yes-or-no option has a `no-` form.
  if (typeof raw === 'boolean' || (Array.isArray(raw) && raw.some((v) => typeof v === 'boolean')))
    throw new UsageError(`unknown option --no-${o.name} for ${spec.name} ${seeHelp(spec)}`);
  const list = (Array.isArray(raw) ? raw : [raw]).map((v) => unkept(String(v)));
  const values =
    o.type === 'number'
      ? list.map((s) => {
          const n = s.trim() !== '' ? Number(s) : Number.NaN;
          if (!Number.isFinite(n))
            throw new UsageError(`${shown} ${JSON.stringify(s)}: expected a number ${seeHelp(spec)}`);
          return n;
        })
      : list;
  return (o.multiple ? values : values[values.length - 1]!) as OptionValue;
}

/**
 * The options, read by yargs; loaded only for arguments that hold one (`checks CODE`, `audit DIR` need no parser,
 * and start faster without it).
 */
async function parseOptions(spec: CommandSpec, head: readonly string[]): Promise<Record<string, unknown>> {
  checkBooleans(spec, head);
  const { default: yargs } = await import('yargs');
  const y = yargs([spec.name, ...head.map(kept)])
    .scriptName('session-audit')
    .locale('en')
    .updateStrings(STRINGS as unknown as Record<string, string>)
    .help(false)
    .version(false)
    .exitProcess(false)
    .parserConfiguration({
      'camel-case-expansion': false,
      'dot-notation': false,
      'parse-numbers': false,
      'parse-positional-numbers': false,
      'short-option-groups': false,
      'greedy-arrays': false,
      'strip-aliased': true,
    })
    .strict()
    .fail((message: string, err: Error | undefined) => {
      throw err instanceof UsageError ? err : usageError(spec, head, err?.message ?? message);
    });
  for (const c of COMMANDS) y.command(yargsCommand(c));
  return y.parseSync() as Record<string, unknown>;
}

/** Parse the arguments after the command name. */
export async function parseArgs(spec: CommandSpec, argv: readonly string[]): Promise<Parsed> {
  const end = argv.indexOf('--');
  const head = end >= 0 ? argv.slice(0, end) : [...argv];
  const tail = end >= 0 ? argv.slice(end + 1) : [];
  const withOptions = head.some((a) => a.startsWith('-'));
  const got = withOptions ? await parseOptions(spec, head) : {};
  const options: Record<string, OptionValue | undefined> = {};
  const deprecated: Parsed['deprecated'] = [];
  for (const o of spec.options) {
    if (got[o.name] === undefined) continue;
    const key = o.deprecated ? o.deprecated.use.replace(/^--/, '') : o.name;
    if (o.deprecated) deprecated.push({ used: typed(head, o, o.name), use: o.deprecated.use });
    options[key] = optionValue(spec, head, o, got[o.name]);
  }
  const given = [
    ...(withOptions ? [] : head),
    ...spec.positionals.flatMap((p) => {
      const v = got[p.name];
      return v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => unkept(String(x)));
    }),
    ...tail,
  ];
  const positionals: Record<string, string | string[] | undefined> = {};
  let p = 0;
  for (const pos of spec.positionals) {
    if (pos.variadic) {
      positionals[pos.name] = given.slice(p);
      p = given.length;
      if (pos.required && (positionals[pos.name] as string[]).length === 0)
        throw new UsageError(`${spec.name}: give at least one ${pos.name.replace(/s$/, '')} ${seeHelp(spec)}`);
      continue;
    }
    positionals[pos.name] = given[p];
    if (given[p] !== undefined) p++;
    else if (pos.required) throw new UsageError(`${spec.name}: give the ${pos.name} ${seeHelp(spec)}`);
  }
  if (p < given.length)
    throw new UsageError(`${spec.name}: unexpected argument ${JSON.stringify(given[p])} ${seeHelp(spec)}`);
  return { positionals, options, deprecated };
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
