/**
 * Build step: compile every JSON Schema in schemas/ (each file and each of its `$defs`) to standalone ajv
 * validation code in dist/validators/ (a CommonJS module per schema file, and index.json naming the module and
 * export of each validator), so a run starts without compiling schemas (ajv's compile is most of
 * a small audit's time). The runtime falls back to compiling when the file is missing. Part of `npm run build`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
// One module per schema file (its validator and those of its `$defs`), so a run loads only the formats it meets.
const files: Array<{ file: string; refs: Record<string, string> }> = [];
for (const path of schemaFiles(schemasDir)) {
  const file = relative(schemasDir, path).split('\\').join('/');
  const schema = JSON.parse(readFileSync(path, 'utf8')) as { $defs?: Record<string, unknown> };
  ajv.addSchema(schema);
  const refs: Record<string, string> = {};
  for (const key of [file, ...Object.keys(schema.$defs ?? {}).map((d) => `${file}#/$defs/${d}`)])
    refs[`v${Object.keys(refs).length}`] = key;
  files.push({ file, refs });
}
const outDir = join(root, 'dist', 'validators');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
rmSync(join(root, 'dist', 'validators.cjs'), { force: true });
const index: Record<string, [string, string]> = {};
let total = 0;
files.forEach(({ refs }, n) => {
  const module = `${n}.cjs`;
  const code = standaloneCode(
    ajv,
    Object.fromEntries(Object.entries(refs).map(([name, key]) => [name, SCHEMA_BASE + key])),
  );
  writeFileSync(join(outDir, module), `${code}\n`);
  total += code.length;
  for (const [name, key] of Object.entries(refs)) index[key] = [module, name];
});
writeFileSync(join(outDir, 'index.json'), `${JSON.stringify(index)}\n`);
console.log(
  `wrote dist/validators/: ${Object.keys(index).length} validators in ${files.length} modules, ` +
    `${Math.round(total / 1024)} KiB`,
);
