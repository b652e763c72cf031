/**
 * Finding and validating the config file: `--config FILE`, else `.session-audit.json` in the working directory,
 * unless that file lies inside one of the inputs: evidence never configures its own audit (a session tree could
 * otherwise carry a config that ignores every code). Inside is decided by device and inode, walking up from the
 * file, so a symlink or a bind mount does not hide it. A skipped file is reported, never silently used.
 */
import { existsSync, lstatSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { codeInfo } from '../checks/catalog.js';
import { UsageError } from '../errors.js';
import { readEvidenceFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { ConfigSchema, type Config } from './schema.js';

export const CONFIG_FILE = '.session-audit.json';

export interface LoadedConfig {
  config: Config;
  /** The file it came from (undefined: no config). */
  path?: string;
  /** A ./.session-audit.json not read because it lies inside this input. */
  skipped?: { path: string; input: string };
}

const id = (st: Stats): string => `${st.dev}:${st.ino}`;

/** The input `file` lies inside (by identity of each directory above it), if any. */
export function inputHolding(file: string, inputs: readonly string[]): string | undefined {
  const ids = new Map<string, string>();
  for (const input of inputs) {
    for (const st of [() => lstatSync(input), () => statSync(input)]) {
      try {
        ids.set(id(st()), input);
      } catch {
        // A missing input is reported by the command.
      }
    }
  }
  let cur = resolve(file);
  for (;;) {
    try {
      const hit = ids.get(id(statSync(cur)));
      if (hit !== undefined) return hit;
    } catch {
      // Not there (yet): look further up.
    }
    const up = dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}

/** One line naming the first problem: `file: at /ignore/0: …`. */
export function loadConfig(
  explicit: string | undefined,
  inputs: readonly string[] = [],
  cwd = process.cwd(),
): LoadedConfig {
  let skipped: LoadedConfig['skipped'];
  // `path` names the file in messages and the report; `abs` is read.
  let path = explicit;
  let abs = explicit === undefined ? undefined : resolve(cwd, explicit);
  if (path === undefined && existsSync(join(cwd, CONFIG_FILE))) {
    const implicit = join(cwd, CONFIG_FILE);
    const input = inputHolding(implicit, inputs);
    if (input === undefined) {
      path = `./${CONFIG_FILE}`;
      abs = implicit;
    } else skipped = { path: `./${CONFIG_FILE}`, input };
  }
  if (path === undefined || abs === undefined) return skipped ? { config: {}, skipped } : { config: {} };
  let bytes: Buffer;
  try {
    bytes = readEvidenceFile(abs, 1024 * 1024);
  } catch (e) {
    if (e instanceof ReadError)
      throw new UsageError(`config ${path}: ${e.reason === 'ENOENT' ? 'no such file' : e.message}`);
    throw e;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new UsageError(`config ${path}: not valid JSON (${(e as Error).message})`);
  }
  const r = ConfigSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const at = issue.path.length ? `/${issue.path.map(String).join('/')}` : '(top level)';
    throw new UsageError(`config ${path}: at ${at}: ${issue.message}`);
  }
  const config = r.data;
  for (const code of [...(config.ignore ?? []), ...Object.keys(config.severity ?? {})]) {
    if (!codeInfo(code))
      throw new UsageError(
        `config ${path}: unknown finding code ${JSON.stringify(code)} (see \`session-audit checks\`)`,
      );
  }
  // Paths in the file are relative to the file.
  const base = dirname(abs);
  const rel = (p: string): string => (isAbsolute(p) ? p : join(base, p));
  if (config.baseline !== undefined) config.baseline = rel(config.baseline);
  if (config.sandboxConfig) config.sandboxConfig = config.sandboxConfig.map(rel);
  return { config, path };
}
