/**
 * Build step: compile every JSON Schema in schemas/ (each file and each of its `$defs`) to standalone ajv
 * validation code in dist/validators.cjs, so a run starts without compiling schemas (ajv's compile is most of
 * a small audit's time). The runtime falls back to compiling when the file is missing. Part of `npm run build`.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as standaloneModule from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS, SCHEMA_BASE, addSchemaFormats, packageRoot } from '../src/formats/schema-runtime.js';

type StandaloneCode = (ajv: Ajv2020, refs: Record<string, string>) => string;
const standaloneCode = (standaloneModule as unknown as { default: StandaloneCode }).default;

function schemaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? schemaFiles(p) : n.endsWith('.schema.json') ? [p] : [];
    });
}

const root = packageRoot();
const schemasDir = join(root, 'schemas');
const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: false } });
addSchemaFormats(ajv);
const refs: Record<string, string> = {};
const keys: Record<string, string> = {};
for (const path of schemaFiles(schemasDir)) {
  const file = relative(schemasDir, path).split('\\').join('/');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as { $defs?: Record<string, unknown> };
  ajv.addSchema(schema);
  for (const key of [file, ...Object.keys(schema.$defs ?? {}).map((d) => `${file}#/$defs/${d}`)]) {
    const name = `v${Object.keys(refs).length}`;
    refs[name] = SCHEMA_BASE + key;
    keys[key] = name;
  }
}
const code = `${standaloneCode(ajv, refs)}\nmodule.exports.__keys = ${JSON.stringify(keys)};\n`;
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist', 'validators.cjs'), code);
console.log(`wrote dist/validators.cjs: ${Object.keys(keys).length} validators, ${Math.round(code.length / 1024)} KiB`);
