/** Files the user names on the command line (configs, logs): read-only, or one clear usage error. */
import { readEvidenceFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { UsageError } from '../errors.js';

export function readUserFile(flag: string, path: string, maxBytes = 256 * 1024 * 1024): Buffer {
  try {
    return readEvidenceFile(path, maxBytes);
  } catch (e) {
    if (e instanceof ReadError)
      throw new UsageError(`${flag} ${path}: ${e.reason === 'ENOENT' ? 'no such file' : e.message}`);
    throw e;
  }
}

export function readUserFileText(flag: string, path: string): string {
  const b = readUserFile(flag, path, 16 * 1024 * 1024);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    throw new UsageError(`${flag} ${path}: not UTF-8 text`);
  }
}
