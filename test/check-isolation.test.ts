/**
 * A check that throws is reported as a tool error for its session and skipped from then on; every other check
 * still sees every event and reports what it found, whatever hook the failure happened in.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { auditSession } from '../src/engine/audit-session.js';
import type { Check, CheckRun } from '../src/checks/define.js';
import { CHECKS } from '../src/checks/registry.js';
import { formatOf } from '../src/formats/registry.js';
import { fsSource } from '../src/read/source.js';
import { findSessions } from '../src/engine/tree.js';
import { CORPORA } from './helpers/corpora.js';

const session = (): ReturnType<typeof fsSource> => {
  const [found] = findSessions([join(CORPORA, 'grok', 'jsonl-torn-tail')]);
  return fsSource(found!);
};

function thrower(hook: keyof CheckRun, after: number): Check {
  return {
    id: `throws-in-${hook}`,
    validate: true,
    codes: {},
    create() {
      let n = 0;
      return {
        [hook]: () => {
          if (++n > after) throw new Error(`boom in ${hook}`);
        },
      };
    },
  };
}

function counter(seen: Record<string, number>): Check {
  return {
    id: 'counts',
    validate: true,
    codes: {},
    create: () => ({
      record: () => void (seen.record = (seen.record ?? 0) + 1),
      event: () => void (seen.event = (seen.event ?? 0) + 1),
      damage: () => void (seen.damage = (seen.damage ?? 0) + 1),
      end: () => void (seen.end = (seen.end ?? 0) + 1),
    }),
  };
}

test.each(['record', 'event', 'damage', 'fileEnd', 'end', 'doc'] as const)(
  'a check throwing in %s is isolated',
  (hook) => {
    const source = session();
    const format = formatOf(source.found);
    const clean: Record<string, number> = {};
    const normal = auditSession(session(), format, { command: 'audit', checks: [...CHECKS, counter(clean)] });
    expect(normal.toolErrors).toEqual([]);
    expect(clean.event).toBeGreaterThan(3);
    expect(clean.damage).toBeGreaterThan(0);

    const seen: Record<string, number> = {};
    const r = auditSession(source, format, {
      command: 'audit',
      checks: [thrower(hook, hook === 'record' || hook === 'event' ? 2 : 0), ...CHECKS, counter(seen)],
    });
    expect(r.toolErrors).toHaveLength(1);
    expect(r.toolErrors[0]!.check).toBe(`throws-in-${hook}`);
    expect(r.toolErrors[0]!.message).toContain(`boom in ${hook}`);
    expect(seen).toEqual(clean);
    expect(r.findings.map((f) => f.fingerprint)).toEqual(normal.findings.map((f) => f.fingerprint));
  },
);
