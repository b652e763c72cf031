/** Writes schemas/ from the zod models. Run by `npm run schemas`; the drift test fails if the files are stale. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ALL_SCHEMAS } from '../src/engine/schemas.js';
import { schemaText } from '../src/formats/json-schema.js';
import { packageRoot } from '../src/formats/schema-runtime.js';

const root = join(packageRoot(), 'schemas');
for (const { file, schema } of ALL_SCHEMAS) {
  const path = join(root, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, schemaText(schema, file));
  console.log(`wrote schemas/${file}`);
}
