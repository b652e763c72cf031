/** `lineage` runs only the checks whose findings it shows, and shows exactly what a full audit would. */
import { describe, expect, test } from 'vitest';
import { auditTree, lineageCheckIds } from '../src/engine/tree.js';
import { lineageView } from '../src/lineage/view.js';
import { corpusCases } from './helpers/corpora.js';

const views = (dir: string, only?: string[]) => {
  const { results, graphs } = auditTree([dir], only ? { command: 'audit', only } : { command: 'audit' });
  const findings = results.flatMap((r) => r.findings);
  return [...graphs].map(([root, g]) => lineageView(root, g, findings));
};

describe('lineage checks', () => {
  test('lineage leaves out the checks whose findings it never shows (the schema check among them)', () => {
    const ids = lineageCheckIds();
    expect(ids).toContain('time');
    expect(ids).toContain('session-policy');
    expect(ids).not.toContain('schema');
  });
  // Every corpora case of sessions (bags are not sessions; a FIFO case needs a scratch copy).
  const cases = corpusCases().filter(
    (c) => c.format !== 'bundles' && c.format !== 'stores' && !c.expected.setup?.length,
  );
  test.each(cases.map((c) => [`${c.format}/${c.name}`, c.dir]))(
    '%s: the lineage from its checks equals the lineage from a full audit',
    (_name, dir) => {
      expect(views(dir, lineageCheckIds())).toEqual(views(dir));
    },
  );
});
