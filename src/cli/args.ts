/**
 * The argument parser: `--name value`, `--name=value`, `-x value`, `--flag`, `--no-flag`, `--flag=false`,
 * repeatable options, `--` ending the options. Strict: an option the command does not take, a missing value or a
 * number that is not one is a one-line usage error naming the command's help.
 */
import { UsageError } from '../errors.js';
import type { CommandSpec, OptionSpec, OptionValue, ParsedArgs } from './spec.js';

const seeHelp = (spec: CommandSpec): string => `(see session-audit ${spec.name} --help)`;

function findOption(spec: CommandSpec, name: string): OptionSpec | undefined {
  return spec.options.find((o) => o.name === name);
}

function findAlias(spec: CommandSpec, letter: string): OptionSpec | undefined {
  return spec.options.find((o) => o.alias === letter);
}

const looksLikeOption = (s: string): boolean => s.startsWith('-') && s.length > 1 && !/^-\d/.test(s);

export interface Parsed extends ParsedArgs {
  /** Deprecated spellings used, each with its replacement. */
  deprecated: Array<{ used: string; use: string }>;
}

/** Parse the arguments after the command name. */
export function parseArgs(spec: CommandSpec, argv: readonly string[]): Parsed {
  const options: Record<string, OptionValue | undefined> = {};
  const positionals: string[] = [];
  const deprecated: Parsed['deprecated'] = [];
  const set = (o: OptionSpec, shown: string, raw: string | boolean): void => {
    let v: string | number | boolean = raw;
    if (o.type === 'number') {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n))
        throw new UsageError(`${shown} ${JSON.stringify(raw)}: expected a number ${seeHelp(spec)}`);
      v = n;
    }
    if (o.deprecated) deprecated.push({ used: shown, use: o.deprecated.use });
    const key = o.deprecated ? o.deprecated.use.replace(/^--/, '') : o.name;
    if (o.multiple) {
      const list = (options[key] as Array<string | number> | undefined) ?? [];
      list.push(v as string | number);
      options[key] = list as OptionValue;
    } else options[key] = v;
  };
  let i = 0;
  while (i < argv.length) {
    const a = argv[i++]!;
    if (a === '--') {
      positionals.push(...argv.slice(i));
      break;
    }
    if (!looksLikeOption(a)) {
      positionals.push(a);
      continue;
    }
    let o: OptionSpec | undefined;
    let shown: string;
    let inline: string | undefined;
    let negated = false;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq >= 0 ? a.slice(eq + 1) : undefined;
      shown = `--${name}`;
      o = findOption(spec, name);
      if (!o && name.startsWith('no-')) {
        const positive = findOption(spec, name.slice(3));
        if (positive?.type === 'boolean' && inline === undefined) {
          o = positive;
          negated = true;
        }
      }
    } else {
      const letter = a.slice(1, 2);
      shown = `-${letter}`;
      o = a.length === 2 || a[2] === '=' ? findAlias(spec, letter) : undefined;
      if (a[2] === '=') inline = a.slice(3);
      if (!o && a.length > 2 && a[2] !== '=') {
        throw new UsageError(`unknown option ${a} for ${spec.name} ${seeHelp(spec)}`);
      }
    }
    if (!o) throw new UsageError(`unknown option ${shown} for ${spec.name} ${seeHelp(spec)}`);
    if (o.type === 'boolean') {
      if (negated) set(o, shown, false);
      else if (inline !== undefined || argv[i] === 'true' || argv[i] === 'false') {
        const v = inline ?? argv[i++]!;
        if (v !== 'true' && v !== 'false')
          throw new UsageError(`${shown}=${v}: expected true or false ${seeHelp(spec)}`);
        set(o, shown, v === 'true');
      } else set(o, shown, true);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = argv[i];
      if (next === undefined || (looksLikeOption(next) && next !== '-'))
        throw new UsageError(`${shown} needs a value${o.value ? ` (${o.value})` : ''} ${seeHelp(spec)}`);
      value = next;
      i++;
    }
    set(o, shown, value);
  }
  const named: Record<string, string | string[] | undefined> = {};
  let p = 0;
  for (const pos of spec.positionals) {
    if (pos.variadic) {
      named[pos.name] = positionals.slice(p);
      p = positionals.length;
      if (pos.required && (named[pos.name] as string[]).length === 0)
        throw new UsageError(`${spec.name}: give at least one ${pos.name.replace(/s$/, '')} ${seeHelp(spec)}`);
      continue;
    }
    named[pos.name] = positionals[p];
    if (positionals[p] !== undefined) p++;
    else if (pos.required) throw new UsageError(`${spec.name}: give the ${pos.name} ${seeHelp(spec)}`);
  }
  if (p < positionals.length)
    throw new UsageError(`${spec.name}: unexpected argument ${JSON.stringify(positionals[p])} ${seeHelp(spec)}`);
  return { positionals: named, options, deprecated };
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}
