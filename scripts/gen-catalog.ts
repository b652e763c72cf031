/**
 * Build step: the finding catalog as dist/catalog.json, so `session-audit checks` starts without loading every
 * check and format (src/cli/catalog-data.ts). Part of `npm run build`; a test compares it with the live catalog.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { catalog } from '../src/checks/catalog.js';
import { packageRoot } from '../src/formats/schema-runtime.js';

const out = join(packageRoot(), 'dist', 'catalog.json');
writeFileSync(out, `${JSON.stringify(catalog())}\n`);
console.log(`wrote dist/catalog.json: ${catalog().length} codes`);
