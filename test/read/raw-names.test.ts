/**
 * Names that are not UTF-8 (issue 27.4). A Grok session's compaction_checkpoints/ holds `evil\xff.json` (the real
 * bytes) beside `evil\ufffd.json` (a decoy spelled as the first decodes leniently): both are evidence, both must be
 * bagged and archived with their own bytes, and the store's index must not break on them. The names are made here
 * with Buffer paths (Linux file systems take any byte but `/` and NUL).
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { escapeName, fsPath, hasRawBytes, nameBytes, rawPathOf } from '../../src/read/names.js';
import { bagitPython, bagitPythonPresent } from '../helpers/bags.js';
import { cli } from '../helpers/cli.js';

const CLEAN = join(import.meta.dirname, '..', '..', 'corpora', 'grok', 'clean', 'sessions');
const GROUP = '%2Fhome%2Fdev%2Fproj';
const SESSION = '019a3f6b-8e40-7b11-8000-00000000a002';
const REAL = Buffer.from('evil\xff.json', 'latin1');
const DECOY = Buffer.from('evil\ufffd.json', 'utf8');
const REAL_BYTES = '{"real":"the bytes under the name that is not UTF-8"}\n';
const DECOY_BYTES = '{"decoy":"the bytes under the name it decodes to"}\n';
const REAL_PATH = 'compaction_checkpoints/evil\\xff.json';
const REAL_RAW = Buffer.concat([Buffer.from('compaction_checkpoints/'), REAL]).toString('base64');
const DECOY_PATH = 'compaction_checkpoints/evil\ufffd.json';
/** A third name: a real backslash, then `xff`: what the first is shown as, unless backslashes are escaped too. */
const LITERAL = 'evil\\xff.json';
const LITERAL_BYTES = '{"literal":"a backslash in the name"}\n';
const LITERAL_PATH = 'compaction_checkpoints/evil\\\\xff.json';

const work = mkdtempSync(join(tmpdir(), 'sa-raw-names-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('escaped names', () => {
  test('a byte that is not UTF-8 is \\xHH, a backslash \\\\: three names that decode alike stay three', () => {
    const literal = Buffer.from('evil\\xff.json'); // a real backslash, x, f, f
    const names = [REAL, DECOY, literal].map(escapeName);
    expect(names).toEqual(['evil\\xff.json', 'evil\ufffd.json', 'evil\\\\xff.json']);
    expect(new Set(names).size).toBe(3);
    for (const [i, b] of [REAL, DECOY, literal].entries()) expect(nameBytes(names[i]!).equals(b)).toBe(true);
    expect(names.map(hasRawBytes)).toEqual([true, false, false]);
    expect(rawPathOf(names[0]!)).toBe(REAL.toString('base64'));
    expect(rawPathOf(names[1]!)).toBeUndefined();
  });

  test('overlong forms, surrogates and truncated sequences are escaped byte by byte; valid text is kept', () => {
    const b = Buffer.from([0xc0, 0xaf, 0x2f, 0xed, 0xa0, 0x80, 0x61, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x80]);
    const s = escapeName(b);
    expect(s).toBe('\\xc0\\xaf/\\xed\\xa0\\x80a\\xe2\\x82😀');
    expect(nameBytes(s).equals(b)).toBe(true);
    expect(escapeName(Buffer.from('plain-ascii.json'))).toBe('plain-ascii.json');
    expect(fsPath('plain/é.json')).toBe('plain/é.json');
    expect(Buffer.isBuffer(fsPath('a\\xffb'))).toBe(true);
  });
});

describe('the decoy beside the real bytes', () => {
  const root = join(work, 'live');
  const checkpoints = join(root, 'sessions', GROUP, SESSION, 'compaction_checkpoints');
  const store = join(work, 'store');
  beforeAll(() => {
    cpSync(CLEAN, join(root, 'sessions'), { recursive: true });
    writeFileSync(Buffer.concat([Buffer.from(`${checkpoints}/`), REAL]), REAL_BYTES);
    writeFileSync(Buffer.concat([Buffer.from(`${checkpoints}/`), DECOY]), DECOY_BYTES);
    writeFileSync(join(checkpoints, LITERAL), LITERAL_BYTES);
  });

  interface Inventory {
    files: Array<{ session: string; path: string; rawPath?: string; bagPath: string; archived: boolean }>;
  }
  const bagged = (bag: string): Map<string, { bytes: string; rawPath?: string }> => {
    const inv = JSON.parse(readFileSync(join(bag, 'inventory.json'), 'utf8')) as Inventory;
    const out = new Map<string, { bytes: string; rawPath?: string }>();
    for (const f of inv.files)
      if (f.session === SESSION && f.path.startsWith('compaction_checkpoints/evil')) {
        expect(f.archived).toBe(true);
        out.set(f.path, {
          bytes: readFileSync(join(bag, f.bagPath), 'utf8'),
          ...(f.rawPath !== undefined ? { rawPath: f.rawPath } : {}),
        });
      }
    return out;
  };
  const expectBoth = (bag: string): void => {
    expect(bagged(bag)).toEqual(
      new Map([
        [DECOY_PATH, { bytes: DECOY_BYTES }],
        [LITERAL_PATH, { bytes: LITERAL_BYTES }],
        [REAL_PATH, { bytes: REAL_BYTES, rawPath: REAL_RAW }],
      ]),
    );
  };
  const validBag = async (bag: string): Promise<void> => {
    const v = await cli(['verify', bag, '--format', 'json']);
    expect(v.code, v.stdout).toBe(0);
    if (!bagitPythonPresent) return;
    const py = bagitPython(bag);
    expect(py.ok, py.output).toBe(true);
  };

  test('audit: the name is reported escaped, as a file no agent writes (a warning), with its real bytes', async () => {
    const r = await cli(['audit', root, '--format', 'json', '--fail-on', 'never']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      sessions: Array<{ id: string; files: Array<{ path: string; rawPath?: string; sha256?: string }> }>;
      findings: Array<{ code: string; severity: string; session: string; location: { file: string } }>;
    };
    const files = report.sessions.find((s) => s.id === SESSION)!.files;
    expect(files.find((f) => f.path === REAL_PATH)).toMatchObject({ rawPath: REAL_RAW });
    expect(files.find((f) => f.path === REAL_PATH)!.sha256).not.toBe(files.find((f) => f.path === DECOY_PATH)!.sha256);
    const named = report.findings.filter((f) => f.session === SESSION && f.location.file === REAL_PATH);
    expect(named).toContainEqual(expect.objectContaining({ code: 'SESSION_UNEXPECTED_FILE', severity: 'warning' }));
  });

  test('bundle: both files in the bag with their own bytes; verify and bagit-python say valid', async () => {
    const bag = join(work, 'live.bag');
    const b = await cli(['bundle', root, '-o', bag]);
    expect(b.code, b.stderr).toBe(0);
    expectBoth(bag);
    await validBag(bag);
  });

  test('archive: both stored; search and --reindex keep working; bundle --from-store gives both back', async () => {
    const a = await cli(['archive', root, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    const search = async (): Promise<number> => {
      const s = await cli(['search', 'failing', '--store', store, '--session', SESSION, '--format', 'jsonl']);
      expect(s.code, s.stderr).toBe(0);
      return s.stdout.split('\n').filter(Boolean).length;
    };
    const hits = await search();
    expect(hits).toBeGreaterThan(0);
    const re = await cli(['archive', '--store', store, '--reindex']);
    expect(re.code, re.stderr).toBe(0);
    expect(await search()).toBe(hits);
    const v = await cli(['verify', '--store', store]);
    expect(v.code, v.stdout).toBe(0);
    const bag = join(work, 'from-store.bag');
    const b = await cli(['bundle', '--from-store', store, '--session', SESSION, '-o', bag]);
    expect(b.code, b.stderr).toBe(0);
    expectBoth(bag);
    await validBag(bag);
  });
});

/** Copy the tree `from` to the real bytes `to` (cpSync takes no Buffer path). */
function copyUnder(from: string, to: Buffer): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const dest = Buffer.concat([to, Buffer.from(`/${e.name}`)]);
    if (e.isDirectory()) copyUnder(join(from, e.name), dest);
    else writeFileSync(dest, readFileSync(join(from, e.name)));
  }
}

describe('directories whose own name is not UTF-8', () => {
  test('a group so named is reported, not audited and not merged with the group its name decodes to', async () => {
    const root = join(work, 'groups');
    const sessions = join(root, 'sessions');
    mkdirSync(sessions, { recursive: true });
    const raw = Buffer.concat([Buffer.from(`${sessions}/`), Buffer.from('%2Fhome\xff', 'latin1')]);
    cpSync(join(CLEAN, GROUP, SESSION), join(sessions, '%2Fhome\ufffd', SESSION), { recursive: true });
    copyUnder(join(CLEAN, GROUP, SESSION), Buffer.concat([raw, Buffer.from(`/${SESSION}`)]));
    const r = await cli(['audit', root, '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(r.stdout) as {
      sessions: Array<{ id: string; path: string }>;
      findings: Array<{ code: string; sessionPath: string; message: string }>;
    };
    // The decoy group's session is audited once; the raw group is a finding that names it escaped.
    expect(report.sessions.filter((s) => s.id === SESSION).map((s) => s.path)).toEqual([
      `${root}/sessions/%2Fhome\ufffd/${SESSION}`,
    ]);
    const said = report.findings.filter((f) => f.code === 'SESSION_UNREADABLE' && f.sessionPath.includes('\\xff'));
    expect(said).toEqual([expect.objectContaining({ sessionPath: `${root}/sessions/%2Fhome\\xff` })]);
    expect(said[0]!.message).toMatch(/not valid UTF-8/);
  });
});
