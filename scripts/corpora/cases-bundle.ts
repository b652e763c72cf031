/**
 * The bundle corpora: evidence bags made by `session-audit bundle` from the clean Grok corpus, then damaged the
 * way bags get damaged or tampered with (a flipped byte, a deleted or added file, a forged manifest, a
 * zip-slip member, a bad signature), plus a live directory that was rewritten after the capture. Each case is
 * verified by `session-audit verify` against its expected.json.
 */
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  type Dirent,
} from 'node:fs';
import { createHash, createPublicKey } from 'node:crypto';
import { join, relative } from 'node:path';
import { privateKeyFromSeed } from '../../src/bundle/dsse.js';
import { runBundle } from '../../src/engine/bundle.js';
import { GROUP, IDS } from './clean-root.js';

/** A line appended to a live log after the capture. */
const APPENDED =
  '{"timestamp":1787140000,"method":"session/update","params":{"sessionId":"x","update":' +
  '{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"appended"}}}}\n';

export interface BundleCase {
  name: string;
  description: string;
  must: string[];
  allow?: string[];
  maxSeverity?: 'warning' | 'note';
  /** The bag, relative to the case directory. */
  target: string;
  args?: string[];
  at?: Array<{ code: string; file: string; line?: number; severity?: 'error' | 'warning' | 'note' }>;
}

/** Test keys (Ed25519 seeds). They sign corpora only: never use them for anything else. */
const SIGNER_SEED = Buffer.from('5f2c1c5e2b0a4d1f8e7c6b5a49382716afbecd0918273645f0e1d2c3b4a59687', 'hex');
const OTHER_SEED = Buffer.from('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'hex');

const pems = (seed: Buffer): { priv: string; pub: string } => {
  const k = privateKeyFromSeed(seed);
  return {
    priv: k.export({ type: 'pkcs8', format: 'pem' }).toString(),
    pub: createPublicKey(k).export({ type: 'spki', format: 'pem' }).toString(),
  };
};

const SMALL = `${GROUP}/${IDS.sub}`;
/** Where the small session's files are inside a bag (`data/<agent>/<session-id>/`). */
const BAGGED = `grok/${IDS.sub}`;
const updatesOf = (bag: string): string => join(bag, 'data', BAGGED, 'updates.jsonl');

/** A ustar header + content, for a hand-made archive holding a member no honest tool writes. */
function tarMember(name: string, content: Buffer): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([h, content, Buffer.alloc((512 - (content.length % 512)) % 512)]);
}

function walkFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSorted(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walkFiles(p, base));
    else out.push(relative(base, p));
  }
  return out;
}

const readdirSorted = (dir: string): Dirent[] =>
  readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/**
 * The Bagging-Date of every corpora bag (the default is the day a bag is made): pinned, so that the bags and their
 * archive entries stay byte-stable whenever they are regenerated.
 */
const BAGGING_DATE = '2026-08-19';

/**
 * Write every bundle case under `<outDir>/bundles/`. `cleanDir` is the clean Grok corpus as the bags should
 * name it (a relative path keeps absolute paths of the generating machine out of the bags).
 */
export async function generateBundles(outDir: string, cleanDir: string): Promise<Array<BundleCase & { dir: string }>> {
  const root = join(outDir, 'bundles');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const small = join(cleanDir, 'sessions', SMALL);
  const cases: Array<BundleCase & { dir: string }> = [];
  const signer = pems(SIGNER_SEED);
  const other = pems(OTHER_SEED);

  const make = async (c: BundleCase, paths: string[], opts: { sign?: boolean } = {}): Promise<string> => {
    const dir = join(root, c.name);
    mkdirSync(dir, { recursive: true });
    let keyFile: string | undefined;
    if (opts.sign) {
      keyFile = join(dir, '.signing-key.pem');
      writeFileSync(keyFile, signer.priv);
      writeFileSync(join(dir, 'signer.pub.pem'), signer.pub);
    }
    const out = join(dir, c.target);
    await runBundle({
      paths,
      out,
      baggingDate: BAGGING_DATE,
      redact: false,
      redactPatterns: [],
      force: false,
      ...(keyFile ? { signKey: keyFile, keyId: 'corpora-signer' } : {}),
    });
    if (keyFile) unlinkSync(keyFile);
    cases.push({ ...c, dir });
    return out;
  };

  await make(
    {
      name: 'valid',
      description: 'A bag of the whole clean corpus (three sessions), as a directory: verifies with no finding.',
      must: [],
      target: 'bag',
    },
    [cleanDir],
  );
  await make(
    {
      name: 'valid-zip',
      description: 'The same bag as a zip, read in place without extracting: verifies with no finding.',
      must: [],
      target: 'bag.zip',
    },
    [cleanDir],
  );
  await make(
    {
      name: 'valid-tgz',
      description: 'One session as a tar.gz: verifies with no finding.',
      must: [],
      target: 'bag.tar.gz',
    },
    [small],
  );
  await make(
    {
      name: 'signed',
      description:
        "A bag whose custody statement is a DSSE envelope signed with Ed25519; verified with the signer's public key.",
      must: [],
      target: 'bag',
      args: ['--key', 'signer.pub.pem'],
    },
    [small],
    { sign: true },
  );
  await make(
    {
      name: 'signed-no-key',
      description:
        'A signed bag verified without --key: the checksums verify, the signature cannot be checked (a warning, ' +
        'exit 0).',
      must: ['BUNDLE_UNVERIFIED'],
      maxSeverity: 'warning',
      target: 'bag',
      at: [{ code: 'BUNDLE_UNVERIFIED', file: 'custody.dsse.json', severity: 'warning' }],
    },
    [small],
    { sign: true },
  );
  {
    const dir = join(root, 'signature-wrong-key');
    await make(
      {
        name: 'signature-wrong-key',
        description: 'A signed bag verified with a different public key: the signature does not verify.',
        must: ['BUNDLE_SIGNATURE_INVALID'],
        target: 'bag',
        args: ['--key', 'other.pub.pem'],
        at: [{ code: 'BUNDLE_SIGNATURE_INVALID', file: 'custody.dsse.json' }],
      },
      [small],
      { sign: true },
    );
    writeFileSync(join(dir, 'other.pub.pem'), other.pub);
  }
  {
    const bag = await make(
      {
        name: 'flipped-byte',
        description: 'One byte of updates.jsonl in the payload was changed after bagging.',
        must: ['BUNDLE_MANIFEST_MISMATCH'],
        target: 'bag',
        at: [{ code: 'BUNDLE_MANIFEST_MISMATCH', file: `data/${BAGGED}/updates.jsonl` }],
      },
      [small],
    );
    const f = updatesOf(bag);
    const b = readFileSync(f);
    b[40] = b[40]! ^ 0x01;
    writeFileSync(f, b);
  }
  {
    const bag = await make(
      {
        name: 'deleted-file',
        description: 'A payload file was deleted after bagging (Payload-Oxum no longer matches either).',
        must: ['BUNDLE_FILE_MISSING', 'BUNDLE_INVALID'],
        target: 'bag',
        at: [
          { code: 'BUNDLE_FILE_MISSING', file: `data/${BAGGED}/summary.json` },
          { code: 'BUNDLE_INVALID', file: 'bag-info.txt' },
        ],
      },
      [small],
    );
    unlinkSync(join(bag, 'data', BAGGED, 'summary.json'));
  }
  {
    const bag = await make(
      {
        name: 'added-file',
        description: 'A file was added to the payload after bagging (Payload-Oxum no longer matches either).',
        must: ['BUNDLE_FILE_EXTRA', 'BUNDLE_INVALID'],
        target: 'bag',
        at: [
          { code: 'BUNDLE_FILE_EXTRA', file: `data/${BAGGED}/notes.txt` },
          { code: 'BUNDLE_INVALID', file: 'bag-info.txt' },
        ],
      },
      [small],
    );
    writeFileSync(join(bag, 'data', BAGGED, 'notes.txt'), 'added later\n');
  }
  {
    const bag = await make(
      {
        name: 'forged-manifest',
        description:
          'A payload file was edited AND its line in manifest-sha256.txt updated to match: the sha512 manifest, ' +
          'the tag manifests and the custody statement still give it away.',
        must: ['BUNDLE_MANIFEST_MISMATCH'],
        target: 'bag',
        at: [
          { code: 'BUNDLE_MANIFEST_MISMATCH', file: `data/${BAGGED}/updates.jsonl` },
          { code: 'BUNDLE_MANIFEST_MISMATCH', file: 'manifest-sha256.txt' },
        ],
      },
      [small],
    );
    const f = updatesOf(bag);
    const before = readFileSync(f);
    const after = Buffer.from(before.toString('utf8').replace('"sessionUpdate"', '"sessionUpdatE"'), 'utf8');
    writeFileSync(f, after);
    const m = join(bag, 'manifest-sha256.txt');
    const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
    writeFileSync(m, readFileSync(m, 'utf8').replace(sha(before), sha(after)));
  }
  {
    const bag = await make(
      {
        name: 'bad-bagit-txt',
        description: 'bagit.txt starts with a byte-order mark and has a third line: not a conforming bag declaration.',
        must: ['BUNDLE_INVALID', 'BUNDLE_MANIFEST_MISMATCH'],
        target: 'bag',
        at: [{ code: 'BUNDLE_INVALID', file: 'bagit.txt', line: 1 }],
      },
      [small],
    );
    writeFileSync(
      join(bag, 'bagit.txt'),
      '\ufeffBagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\nExtra: line\n',
    );
  }
  {
    // A tar holding a valid bag plus members that would escape an extraction directory.
    const dir = join(root, 'zip-slip');
    const staging = join(dir, '.staging');
    mkdirSync(dir, { recursive: true });
    await runBundle({
      paths: [small],
      out: staging,
      baggingDate: BAGGING_DATE,
      redact: false,
      redactPatterns: [],
      force: false,
    });
    const parts = walkFiles(staging).map((rel) => tarMember(rel, readFileSync(join(staging, rel))));
    parts.push(tarMember('data/../../escape.txt', Buffer.from('written outside the extraction directory\n')));
    parts.push(tarMember('/tmp/absolute.txt', Buffer.from('an absolute member\n')));
    writeFileSync(join(dir, 'bag.tar'), Buffer.concat([...parts, Buffer.alloc(1024)]));
    rmSync(staging, { recursive: true });
    cases.push({
      name: 'zip-slip',
      dir,
      description:
        'A hand-made tar holding a valid bag plus a `../` member and an absolute member: both are rejected, never ' +
        'resolved or extracted.',
      must: ['BUNDLE_UNSAFE_PATH'],
      target: 'bag.tar',
      at: [
        { code: 'BUNDLE_UNSAFE_PATH', file: 'data/../../escape.txt' },
        { code: 'BUNDLE_UNSAFE_PATH', file: '/tmp/absolute.txt' },
      ],
    });
  }
  {
    // The capture, and the live session afterwards: a log line edited, the summary rewritten, a file gone.
    const dir = join(root, 'against-rewritten');
    await make(
      {
        name: 'against-rewritten',
        description:
          'verify --against the live session: updates.jsonl was edited in place after the capture (not ' +
          'append-only), summary.json was rewritten (reported with the changed keys), system_prompt.txt was ' +
          'deleted, a file was added.',
        must: ['BUNDLE_NOT_APPEND_ONLY', 'BUNDLE_FILE_CHANGED', 'BUNDLE_FILE_MISSING'],
        target: 'bag',
        args: ['--against', 'live'],
        at: [
          { code: 'BUNDLE_NOT_APPEND_ONLY', file: 'updates.jsonl', line: 2 },
          { code: 'BUNDLE_FILE_CHANGED', file: 'summary.json' },
          { code: 'BUNDLE_FILE_MISSING', file: 'system_prompt.txt', severity: 'warning' },
        ],
      },
      [small],
    );
    const live = join(dir, 'live', IDS.sub);
    cpSync(small, live, { recursive: true });
    const u = join(live, 'updates.jsonl');
    const lines = readFileSync(u, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"sessionUpdate"', '"sessionUpdatE"');
    writeFileSync(u, lines.join('\n'));
    appendFileSync(u, APPENDED);
    const s = join(live, 'summary.json');
    const summary = JSON.parse(readFileSync(s, 'utf8')) as Record<string, unknown>;
    summary.title = 'A title set after the capture';
    writeFileSync(`${s}.tmp`, `${JSON.stringify(summary, null, 2)}\n`);
    renameSync(`${s}.tmp`, s);
    rmSync(join(live, 'system_prompt.txt'), { force: true });
    writeFileSync(join(live, 'plan.md'), '# plan written after the capture\n');
  }
  {
    await make(
      {
        name: 'against-appended',
        description:
          'verify --against the live session after Grok only appended to its logs: no error (appended chat history ' +
          'is a note).',
        must: [],
        maxSeverity: 'note',
        target: 'bag',
        args: ['--against', 'live'],
      },
      [small],
    );
    const live = join(root, 'against-appended', 'live', IDS.sub);
    cpSync(small, live, { recursive: true });
    appendFileSync(join(live, 'updates.jsonl'), APPENDED);
  }
  return cases;
}
