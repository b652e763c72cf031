/** The parser: yargs, defined from each command's data, strict, and saying what is wrong in the tool's words. */
import { describe, expect, test } from 'vitest';
import { parseArgs } from '../src/cli/args.js';
import { COMMANDS } from '../src/cli/commands/index.js';
import { yargsCommand } from '../src/cli/yargs-commands.js';

const spec = (name: string) => COMMANDS.find((c) => c.name === name)!;

describe('the parser', () => {
  test('every command is defined for yargs from its data: its positionals and the options it uses', () => {
    const audit = yargsCommand(spec('audit'));
    expect(audit.command).toBe('audit [paths..]');
    expect(yargsCommand(spec('checks')).command).toBe('checks [code]');
  });
  test('values, aliases, repeats, negation and numbers come out as the command reads them', async () => {
    const r = await parseArgs(spec('audit'), [
      'a',
      '-f',
      'json',
      '--ignore',
      'X',
      '--ignore=Y',
      '--no-color',
      '-j',
      '2',
      'b',
    ]);
    expect(r.positionals).toEqual({ paths: ['a', 'b'] });
    expect(r.options).toEqual({ format: 'json', ignore: ['X', 'Y'], color: false, jobs: 2 });
  });
  test('after --, and for - or -5, an argument is an argument even when it looks like an option', async () => {
    const r = await parseArgs(spec('audit'), ['-', '-5', '--', '--color']);
    expect(r.positionals).toEqual({ paths: ['-', '-5', '--color'] });
    expect(r.options).toEqual({});
  });
  test.each([
    [['a', '--frob'], 'unknown option --frob for audit (see session-audit audit --help)'],
    [['a', '--output'], '--output needs a value (FILE) (see session-audit audit --help)'],
    [['a', '-j', 'many'], '-j "many": expected a number (see session-audit audit --help)'],
    [['a', '--color=maybe'], '--color=maybe: expected true or false (see session-audit audit --help)'],
    [['a', '--no-output'], 'unknown option --no-output for audit (see session-audit audit --help)'],
    [[], 'audit: give at least one path (see session-audit audit --help)'],
  ])('%j: one line in the tool’s words, no yargs noise', async (argv, message) => {
    await expect(parseArgs(spec('audit'), argv)).rejects.toThrow(message);
  });
  test('an argument too many is named', async () => {
    await expect(parseArgs(spec('checks'), ['A', 'B'])).rejects.toThrow(
      'checks: unexpected argument "B" (see session-audit checks --help)',
    );
  });
});
