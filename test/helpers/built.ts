/**
 * Whether a module of the build (dist/) is there. Tests that need the built CLI or its worker scripts are skipped
 * without it when run by hand; under CI (CI=true, where `npm test` builds first) a missing file is an error, so a
 * moved module can never turn a test into a silent skip.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function isBuilt(rel: string): boolean {
  const path = fileURLToPath(new URL(`../../dist/${rel}`, import.meta.url));
  const there = existsSync(path);
  if (!there && process.env.CI) throw new Error(`dist/${rel} is not built: the tests run after \`npm run build\``);
  return there;
}
