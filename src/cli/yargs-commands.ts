/**
 * The yargs definition of each command, generated from its data (commands/index.ts): the command string with its
 * positionals, one yargs option per option the command uses (its alias, string / boolean, repeatable as a
 * non-greedy array), nothing more. Help is not yargs': it is rendered from the same data by help.ts, so yargs
 * prints nothing of its own (no `[required] [default: []]`). Loaded only when a command runs.
 */
import type { Argv, CommandModule, Options } from 'yargs';
import type { CommandSpec, OptionSpec } from './spec.js';

/**
 * The command string: every positional optional for yargs (`audit [paths..]`), because arguments after `--` are
 * not yargs' to count; the parser (args.ts) checks the required ones and says which is missing.
 */
export function commandString(spec: CommandSpec): string {
  return [spec.name, ...spec.positionals.map((p) => `[${p.name}${p.variadic ? '..' : ''}]`)].join(' ');
}

/** One option as yargs reads it: numbers are read as text and checked by the parser, which names the bad value. */
export function yargsOption(o: OptionSpec): Options {
  if (o.type === 'boolean') return { type: 'boolean', ...(o.alias ? { alias: o.alias } : {}) };
  return {
    type: o.multiple ? 'array' : 'string',
    ...(o.multiple ? { string: true } : {}),
    requiresArg: true,
    ...(o.alias ? { alias: o.alias } : {}),
  };
}

export function yargsCommand(spec: CommandSpec): CommandModule {
  return {
    command: commandString(spec),
    describe: spec.summary,
    builder: (y: Argv) => {
      for (const p of spec.positionals)
        y.positional(p.name, { type: 'string', ...(p.variadic ? { array: true } : {}) });
      for (const o of spec.options) y.option(o.name, yargsOption(o));
      return y;
    },
    handler: () => {},
  };
}
