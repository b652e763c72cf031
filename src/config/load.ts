/** Finding and validating the config file: `--config FILE`, else `.session-audit.json` in the working directory. */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { codeInfo } from '../checks/catalog.js';
import { UsageError } from '../errors.js';
import { readEvidenceFile, ReadError } from '../read/files.js';
import { ConfigSchema, type Config } from './schema.js';

export const CONFIG_FILE = '.session-audit.json';

export interface LoadedConfig {
  config: Config;
  /** The file it came from (undefined: no config). */
  path?: string;
}

/** One line naming the first problem: `file: at /ignore/0: …`. */
export function loadConfig(explicit: string | undefined, cwd = process.cwd()): LoadedConfig {
  const path = explicit ?? (existsSync(join(cwd, CONFIG_FILE)) ? join(cwd, CONFIG_FILE) : undefined);
  if (path === undefined) return { config: {} };
  let bytes: Buffer;
  try {
    bytes = readEvidenceFile(path, 1024 * 1024);
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
  const base = dirname(resolve(path));
  const rel = (p: string): string => (isAbsolute(p) ? p : join(base, p));
  if (config.baseline !== undefined) config.baseline = rel(config.baseline);
  if (config.sandboxConfig) config.sandboxConfig = config.sandboxConfig.map(rel);
  return { config, path };
}
