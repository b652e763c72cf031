/**
 * GitHub Copilot CLI sessions: the real files in ../shared/external/copilot-cli (CLI 0.0.34x to 1.0.60, the three
 * on-disk generations and a session store with its -wal) audit to exactly the findings that are really in them;
 * every command runs on each of them without changing a byte, a mode, an mtime or a listing (the store's -wal and
 * -shm included); inspect names the resume command and says "bundle first"; the store is read with its -wal; plus
 * the synthetic corpora (checked-in = generated; zod and the JSON Schema agree), the denied call, and the secrets of
 * a home kept out of bags.
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { copilotCorpus } from '../../scripts/corpora/cases-copilot.js';
import { copilotHomeCases } from '../../scripts/corpora/cases-copilot-home.js';
import { catalog } from '../../src/checks/catalog.js';
import { validator } from '../../src/formats/schema-runtime.js';
import { EventLine } from '../../src/formats/copilot/models.js';
import { COPILOT_SCHEMAS } from '../../src/formats/copilot/schemas.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { expectModelAndSchemaAgree, expectShippedCorpora } from '../helpers/agent-corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const EXTERNAL = fileURLToPath(new URL('../../../shared/external/copilot-cli', import.meta.url));
const present = existsSync(EXTERNAL);
if (!present)
  console.warn(`skipping the real Copilot CLI files: ${EXTERNAL} is absent (third-party data outside the repository)`);

const scratch = mkdtempSync(join(tmpdir(), 'sa-copilot-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const audit = async (...args: string[]): Promise<AuditReport> => {
  const r = await cli(['audit', ...args, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as AuditReport;
};
const tail = (p: string): string => p.split('/').slice(-2).join('/');
const summary = (rep: AuditReport): string[] =>
  rep.findings
    .map((f) => {
      const s = rep.sessions.find((x) => x.id === f.session);
      return `${s ? tail(s.path) : f.session} ${f.location.file}:${f.location.line ?? ''} ${f.code} ${f.severity}`;
    })
    .sort();

/** Every session of the real files, as a user would name it: a directory, a flat log, a legacy file, the store. */
function realTargets(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const n of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, n.name);
      if (n.isDirectory()) {
        if (dirname(p).endsWith('session-state')) out.push(p);
        else walk(p);
      } else if (/session-state\/[^/]+\.jsonl$|history-session-state\/session_.*\.json$|session-store\.db$/.test(p))
        out.push(p);
    }
  };
  walk(EXTERNAL);
  return out.sort();
}

describe.skipIf(!present)('the real Copilot CLI files (../shared/external/copilot-cli)', () => {
  /**
   * Every finding, each confirmed against the file:
   * - Tokisaki7-Dev 27d7ef99….jsonl line 57: one of seven parallel str_replace_editor creates (railway.json) started
   *   and never completed while the six others did, and the model went on: a completion the log lost (SOURCES.md
   *   counts "1 tool.execution_start without complete"). The only error, and true of the file.
   * - the two flat files (CLI 0.0.365) and the three history-session-state files are older layouts (notes);
   * - softwaresalt 07c40cd0 and jjwvanboxtel d5b1506c hold an inuse.<pid>.lock (notes: live when committed, or the
   *   process died; neither log ends with session.shutdown);
   * - XEFF09 ea188557 has workspace.yaml and its checkpoint index only: opened, never prompted (a note);
   * - SECRET_IN_SESSION warnings where the files hold secret-shaped text: KEY=value assignments in tool output and
   *   in created files (placeholders such as GOOGLE_AI_API_KEY=AIza...sua-key-aqui among them), and a
   *   `Set-Cookie: session=...` header in a design note of the legacy 076dfd18 file (its prose
   *   "(Authorization: Bearer)" names no value: not a finding).
   * Nothing else: every line re-serialises to itself (no COPILOT_NOT_CANONICAL), every resume counts the lines
   * before it, the store's 4 turns (with its -wal) match the log's 4 prompts.
   */
  test('they audit to exactly the findings that are really in them', async () => {
    const rep = await audit(EXTERNAL);
    expect(rep.toolErrors).toEqual([]);
    expect(rep.sessions.filter((s) => s.kind !== 'home').length).toBe(13);
    // Kaijon's home holds session-store.db: an entry of its own, whose check finds every row's session there.
    expect(rep.sessions.filter((s) => s.kind === 'home').map((s) => [tail(s.path), s.findings])).toEqual([
      ['Kaijon__little-hou-claw/.copilot', { error: 0, warning: 0, note: 0 }],
    ]);
    const got = summary(rep).filter((s) => !s.includes('SECRET_IN_SESSION'));
    expect(got).toEqual(
      [
        'history-session-state/session_076dfd18-c092-4221-bb1e-efdf478eff3d_1759669955294.json ' +
          'session_076dfd18-c092-4221-bb1e-efdf478eff3d_1759669955294.json: COPILOT_LEGACY_LAYOUT note',
        'history-session-state/session_e02997e2-e7e7-46ae-8027-b1a73e0cb908_1761492781060.json ' +
          'session_e02997e2-e7e7-46ae-8027-b1a73e0cb908_1761492781060.json: COPILOT_LEGACY_LAYOUT note',
        'history-session-state/session_ea20af27-b3c6-4843-b737-05a1b8aeacf0_1759498020507.json ' +
          'session_ea20af27-b3c6-4843-b737-05a1b8aeacf0_1759498020507.json: COPILOT_LEGACY_LAYOUT note',
        'session-state/27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl 27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl: ' +
          'COPILOT_LEGACY_LAYOUT note',
        'session-state/27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl 27d7ef99-f7c7-43eb-8599-cb469623c8f7.jsonl:57 ' +
          'TOOL_UNANSWERED_CALL error',
        'session-state/63df9229-7aae-4df0-b05e-3dd1a3063822.jsonl 63df9229-7aae-4df0-b05e-3dd1a3063822.jsonl: ' +
          'COPILOT_LEGACY_LAYOUT note',
        '07c40cd0-ff51-4d6e-bdcd-ac2f90877203/events.jsonl inuse.2924.lock: COPILOT_IN_USE note',
        'd5b1506c-19d6-4e6a-818c-89a50c48bb34/events.jsonl inuse.45268.lock: COPILOT_IN_USE note',
        'ea188557-8fb2-4508-9fb0-32328cfc2057/workspace.yaml workspace.yaml: COPILOT_NO_EVENTS note',
      ].sort(),
    );
    const secrets = rep.findings.filter((f) => f.code === 'SECRET_IN_SESSION');
    expect(secrets.every((f) => f.severity === 'warning')).toBe(true);
    expect(secrets.length).toBe(22);
  });

  test('every line of every real log re-serialises to itself (the tamper signature holds)', () => {
    const logs = realTargets().flatMap((t) =>
      t.endsWith('.jsonl') ? [t] : existsSync(join(t, 'events.jsonl')) ? [join(t, 'events.jsonl')] : [],
    );
    expect(logs.length).toBe(8);
    for (const log of logs)
      for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
        const v = JSON.parse(line) as Record<string, unknown>;
        expect(JSON.stringify(v)).toBe(line);
        expect(Object.keys(v)).toEqual(['type', 'data', 'id', 'timestamp', 'parentId']);
      }
  });

  test('every command runs on each real session and on the homes, and nothing under them changes', async () => {
    const before = treeState(EXTERNAL);
    const targets = realTargets();
    expect(targets.length).toBe(13);
    // The commands over a tree read every session of it; the one-session commands run on each.
    for (const cmd of [['validate', '--fail-on', 'never'], ['lineage'], ['sessions'], ['activity']]) {
      const r = await cli([cmd[0]!, EXTERNAL, ...cmd.slice(1)]);
      expect(r.stderr, cmd[0]).toBe('');
      expect(r.code, cmd[0]).toBe(0);
    }
    for (const t of targets) {
      for (const cmd of ['timeline', 'pairs', 'transcript']) {
        const r = await cli([cmd, t]);
        expect(r.stderr, `${cmd} ${t}`).toBe('');
        expect(r.code, `${cmd} ${t}`).toBe(0);
      }
      const i = await cli(['inspect', t]);
      // 4: not safe to resume: 27d7ef99 lost the completion of a file create (a mutating call in flight).
      expect(i.stderr, `inspect ${t}`).toBe('');
      expect(i.code, `inspect ${t}`).toBe(t.includes('27d7ef99') ? 4 : 0);
      expect(i.stdout, t).toMatch(/copilot --resume|session-store\.db is not a session/);
      expect(i.stdout, t).toContain('Bundle first');
    }
    const bag = join(scratch, 'real.zip');
    expect((await cli(['bundle', EXTERNAL, '-o', bag])).code).toBe(0);
    const v = await cli(['verify', bag, '--against', EXTERNAL]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const store = mkdtempSync(join(scratch, 'store-'));
    const a = await cli(['archive', EXTERNAL, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    const s = await cli(['search', 'parser OR README', '--store', store, '--agent', 'copilot', '--format', 'jsonl']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout.split('\n').filter(Boolean).length).toBeGreaterThan(0);
    expect(diffStates(before, treeState(EXTERNAL))).toEqual([]);
  });

  test('inspect names the resume command from the cwd and what a resume would change', async () => {
    const dir = join(EXTERNAL, 'XEFF09__dotfiles/.copilot/session-state/feeb765c-b05d-456f-bb55-ff2504dad88b');
    const r = await cli(['inspect', dir]);
    expect(r.stdout).toContain(
      'cd /Users/thatpong/.dotfiles/.copilot && copilot --resume feeb765c-b05d-456f-bb55-ff2504dad88b',
    );
    expect(r.stdout).toMatch(/rewrites workspace\.yaml/);
    expect(r.stdout).toMatch(/never\s+recorded in the log/);
  });

  test('the store is read with its -wal: 4 turns as the log has; the database alone has 3', async () => {
    const home = join(scratch, 'kaij');
    cpSync(join(EXTERNAL, 'Kaijon__little-hou-claw/.copilot'), home, { recursive: true });
    expect(summary(await audit(home))).toEqual([]);
    rmSync(join(home, 'session-store.db-wal'));
    rmSync(join(home, 'session-store.db-shm'));
    expect(summary(await audit(home))).toEqual(['kaij/session-store.db session-store.db: COPILOT_STORE_TURNS warning']);
  });
});

describe('the corpora', () => {
  const clean = join(CORPORA, 'copilot', 'clean');

  test('the clean home: its sessions are the two directories and the store, never config.json', async () => {
    const rep = await audit(clean);
    expect(rep.findings).toEqual([]);
    expect(rep.sessions.map((s) => s.path.replace(`${clean}/`, '')).sort()).toEqual([
      'session-state/5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b01/events.jsonl',
      'session-state/5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b02/events.jsonl',
      'session-store.db',
    ]);
  });

  test('a bag of the home holds the logs, never config.json, the command history or the rewind backups', async () => {
    const bag = join(scratch, 'home-bag');
    expect((await cli(['bundle', clean, '-o', bag])).code).toBe(0);
    const payload = [...treeState(join(bag, 'data')).keys()];
    expect(payload.some((p) => p.endsWith('events.jsonl'))).toBe(true);
    expect(payload.some((p) => p.endsWith('rewind-snapshots/index.json'))).toBe(true);
    expect(payload.some((p) => p.endsWith('session-store.db-wal'))).toBe(true);
    for (const secret of ['config.json', 'command-history-state', '/backups/'])
      expect(payload.filter((p) => p.includes(secret))).toEqual([]);
    const all = [...treeState(bag).keys()]
      .filter((p) => lstatSync(join(bag, p)).isFile())
      .map((p) => readFileSync(join(bag, p)).toString('utf8'));
    expect(all.filter((t) => t.includes('gho_notARealToken'))).toEqual([]);
    // The backup is inventoried (hashed) and said to be withheld.
    expect(all.some((t) => t.includes('withheld: a copy of the user'))).toBe(true);
    const v = await cli(['verify', bag, '--against', clean]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });

  test('a denied call is answered by its denial: pairs says synthetic, transcript says rejected', async () => {
    const dir = join(CORPORA, 'copilot/denied-call/session-state/5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b01');
    const r = await cli(['pairs', dir, '--format', 'json']);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ status: string }> }> }).sessions[0]!.rows;
    expect(rows.filter((x) => x.status === 'synthetic').length).toBe(1);
    expect(rows.filter((x) => x.status === 'answered').length).toBe(rows.length - 1);
    const t = await cli(['transcript', dir]);
    expect(t.stdout).toMatch(/rejected/);
    expect(t.stdout).toContain('rm -rf target');
  });

  test('a flat log or a session directory copied alone is found by its content', async () => {
    const dir = join(scratch, 'alone');
    mkdirSync(dir, { recursive: true });
    copyFileSync(
      join(clean, 'session-state/5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b02/events.jsonl'),
      join(dir, 'evidence.jsonl'),
    );
    const rep = await audit(dir);
    expect(rep.sessions.map((s) => [s.id, s.format])).toEqual([['5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b02', 'copilot']]);
  });

  test("the store's comparison never follows a symlinked session directory", async () => {
    const home = join(scratch, 'linked');
    cpSync(clean, home, { recursive: true });
    const id = '5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b01';
    const elsewhere = join(scratch, 'elsewhere');
    cpSync(join(home, 'session-state', id), elsewhere, { recursive: true });
    // Elsewhere, a log with one prompt more than the store counts: read through the link, a COPILOT_STORE_TURNS.
    const log = join(elsewhere, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const prompt = lines.find((l) => l.includes('"type":"user.message"'))!;
    writeFileSync(
      log,
      `${[...lines, prompt.replace(/"id":"[^"]+"/, '"id":"5b2d0000-0000-4000-8000-00000000ffff"')].join('\n')}\n`,
    );
    rmSync(join(home, 'session-state', id), { recursive: true });
    symlinkSync(elsewhere, join(home, 'session-state', id));
    const before = treeState(elsewhere);
    const codes = (await audit(home)).findings.map((f) => f.code);
    expect(codes).not.toContain('COPILOT_STORE_TURNS');
    expect(diffStates(before, treeState(elsewhere))).toEqual([]);
  });

  test('the checked-in Copilot CLI corpora are exactly what the generator writes', () => {
    const out = mkdtempSync(join(scratch, 'gen-'));
    const [format, agent, layout, tree, cases] = copilotCorpus();
    generateAgentCorpora(
      out,
      format,
      agent,
      layout,
      tree,
      [...cases, ...copilotHomeCases()],
      catalog().map((e) => e.code),
    );
    expectShippedCorpora(out, 'copilot');
  });

  test('zod and the generated JSON Schema agree on every record of the copilot corpora', () => {
    expectModelAndSchemaAgree('copilot', EventLine, validator(COPILOT_SCHEMAS.events!.file));
  });
});
