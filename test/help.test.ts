/**
 * `--help`: every command shows its usage, its arguments, the options it uses and only those, examples and exit
 * codes, without parser noise; one option name means one thing across commands (`--against` is verify's live
 * session; audit's earlier capture is `--earlier-capture`, the old spelling still working with a deprecation line).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COMMANDS } from '../src/cli/commands/index.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const source = (command: string): string =>
  readFileSync(
    new URL(`../src/cli/commands/${command === 'validate' ? 'audit' : command}.ts`, import.meta.url),
    'utf8',
  );

describe('every command explains itself', () => {
  test.each(COMMANDS.map((c) => [c.name, c] as const))('%s --help', async (name, spec) => {
    const r = await cli([name, '--help'], { columns: 100 });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const out = r.stdout;
    expect(out).toMatch(new RegExp(`^Usage: session-audit ${name}`));
    expect(out).toMatch(/\nOptions:\n/);
    expect(out).toMatch(/\nExamples:\n {2}session-audit /);
    expect(out).toMatch(/\nExit codes:\n {2}0 /);
    expect(out).not.toMatch(/\[(required|default|array|string|boolean|number)\b|Unknown argument|Not enough/);
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    for (const o of spec.options.filter((x) => !x.deprecated)) {
      expect(out, o.name).toContain(o.offSwitch ? `--no-${o.name}` : `--${o.name}`);
      // Listed only if the command's code reads it.
      expect(source(name), `${name} --${o.name}`).toContain(`'${o.name}'`);
    }
    expect(await cli(['help', name], { columns: 100 })).toEqual(r);
  });

  test('the program help lists the commands, and exit codes', async () => {
    const r = await cli(['--help']);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`\\n {2}${c.name} +\\S`));
    expect(r.stdout).toMatch(/Exit codes/);
    expect((await cli(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  test('validate lists none of the options only audit uses, and refuses them', async () => {
    const out = (await cli(['validate', '--help'])).stdout;
    for (const o of ['--shard', '--earlier-capture', '--against', '--sandbox-config', '--grok-home'])
      expect(out).not.toContain(o);
    const r = await cli(['validate', join(CORPORA, 'grok', 'clean'), '--sandbox-config', 'x.toml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'session-audit: unknown option --sandbox-config for validate (see session-audit validate --help)\n',
    );
  });

  test('--color and --no-color are accepted by every command', async () => {
    for (const c of COMMANDS)
      expect(
        c.options.map((o) => o.name),
        c.name,
      ).toContain('color');
    const checks = await cli(['checks', 'JSONL_TORN_TAIL', '--color']);
    expect(checks.stdout).toContain('\u001b[1mJSONL_TORN_TAIL');
    expect((await cli(['checks', 'JSONL_TORN_TAIL', '--no-color'], { isTTY: true })).stdout).not.toContain('\u001b');
  });
});

describe('colour in a pipe', () => {
  const bin = fileURLToPath(new URL('../bin/session-audit.js', import.meta.url));
  const run = (env: Record<string, string>, ...extra: string[]): string => {
    const { FORCE_COLOR: _f, NO_COLOR: _n, ...rest } = process.env;
    return spawnSync(process.execPath, [bin, 'checks', 'JSONL_TORN_TAIL', ...extra], {
      env: { ...rest, ...env },
      encoding: 'utf8',
    }).stdout;
  };
  test('a pipe gets no colour unless asked', () => {
    expect(run({})).toContain('JSONL_TORN_TAIL');
    expect(run({})).not.toContain('\u001b');
  });
  test('FORCE_COLOR colours a pipe, FORCE_COLOR=0 does not, and --no-color wins over it', () => {
    expect(run({ FORCE_COLOR: '1' })).toContain('\u001b[1mJSONL_TORN_TAIL');
    expect(run({ FORCE_COLOR: '1', NO_COLOR: '1' })).toContain('\u001b[1m');
    expect(run({ FORCE_COLOR: '0' })).not.toContain('\u001b');
    expect(run({ FORCE_COLOR: '1' }, '--no-color')).not.toContain('\u001b');
    expect(run({ NO_COLOR: '1' }, '--color')).toContain('\u001b[1m');
  });
});

describe('one meaning per option name', () => {
  test('an option name has one type and one kind of value in every command', () => {
    const seen = new Map<string, { type: string; value?: string; in: string }>();
    for (const c of COMMANDS)
      for (const o of c.options.filter((x) => !x.deprecated)) {
        const was = seen.get(o.name);
        if (!was) seen.set(o.name, { type: o.type, ...(o.value ? { value: o.value } : {}), in: c.name });
        else if (o.name !== 'output' && o.name !== 'format')
          expect({ type: o.type, value: o.value }, `--${o.name} in ${c.name} and ${was.in}`).toEqual({
            type: was.type,
            value: was.value,
          });
      }
    const against = COMMANDS.filter((c) => c.options.some((o) => o.name === 'against' && !o.deprecated));
    expect(against.map((c) => c.name)).toEqual(['verify']);
  });

  test('audit --against still works, with a line naming --earlier-capture', async () => {
    const clean = join(CORPORA, 'grok', 'clean');
    const old = await cli(['audit', clean, '--against', clean, '--format', 'json']);
    const now = await cli(['audit', clean, '--earlier-capture', clean, '--format', 'json']);
    expect(old.stderr).toBe('session-audit: --against is deprecated for audit: use --earlier-capture (same meaning)\n');
    expect(now.stderr).toBe('');
    expect(old.stdout).toBe(now.stdout);
    expect(old.code).toBe(now.code);
  });
});
