/**
 * What the code finds in the shipped corpora is what the committed reports/corpora-audit.json says, byte for byte:
 * a change meant to leave findings alone (a faster reader, work moved to another thread) must leave it so, and a
 * change that alters findings must regenerate it (`npm run reports`) and show the difference in review.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { packageRoot } from '../src/formats/schema-runtime.js';
import { renderJson } from '../src/report/json.js';
import { auditCorpora } from '../scripts/corpora-report.js';

test('reports/corpora-audit.json is what the code finds in the corpora now', () => {
  const root = packageRoot();
  const committed = readFileSync(join(root, 'reports', 'corpora-audit.json'), 'utf8');
  const now = renderJson(auditCorpora(root).report);
  expect(JSON.parse(now).summary.sessions).toBeGreaterThan(200);
  expect(now).toBe(committed);
}, 120_000);
