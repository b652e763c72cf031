/**
 * What a command is, as data: its arguments, its options (each used by the command), examples and exit codes.
 * `--help` is rendered from it, the parser reads it, and the command's code is loaded only when it runs.
 */
import type { Io } from './io.js';

/** Facts some help texts list (the agents, the kinds of session): loaded only to render help. */
export interface HelpFacts {
  formatNames: readonly string[];
  sessionNouns: string;
}

export type Text = string | ((facts: HelpFacts) => string);

export interface OptionSpec {
  /** The long name, without `--`. */
  name: string;
  /** One letter, without `-`. */
  alias?: string;
  type: 'string' | 'number' | 'boolean';
  /** Repeatable: every value is kept, in order. */
  multiple?: boolean;
  /** The value's placeholder in help (FILE, N, CODE). */
  value?: string;
  describe: Text;
  /** An old spelling: it still works, and a line on stderr names the new one. */
  deprecated?: { use: string };
  /** A boolean that is on unless `--no-<name>` is given: help shows the `--no-` form. */
  offSwitch?: true;
}

export interface PositionalSpec {
  name: string;
  required: boolean;
  variadic?: boolean;
  describe: Text;
}

export type OptionValue = string | number | boolean | string[] | number[];

export interface ParsedArgs {
  positionals: Record<string, string | string[] | undefined>;
  options: Record<string, OptionValue | undefined>;
}

export interface CommandModule {
  run(args: ParsedArgs, io: Io): Promise<void> | void;
}

export interface CommandSpec {
  name: string;
  /** One line, for the command list. */
  summary: string;
  /** More, for the command's own help (optional). */
  description?: Text;
  positionals: PositionalSpec[];
  options: OptionSpec[];
  examples: Array<[command: string, what: string]>;
  exitCodes: Array<[code: number, meaning: string]>;
  load(): Promise<CommandModule>;
}

/** Typed reads of parsed options. */
export const opt = {
  str: (a: ParsedArgs, name: string): string | undefined => a.options[name] as string | undefined,
  num: (a: ParsedArgs, name: string): number | undefined => a.options[name] as number | undefined,
  bool: (a: ParsedArgs, name: string): boolean | undefined => a.options[name] as boolean | undefined,
  list: (a: ParsedArgs, name: string): string[] => (a.options[name] as string[] | undefined) ?? [],
  pos: (a: ParsedArgs, name: string): string => a.positionals[name] as string,
  posList: (a: ParsedArgs, name: string): string[] => (a.positionals[name] as string[] | undefined) ?? [],
};
