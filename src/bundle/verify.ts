/**
 * A conforming BagIt validator (RFC 8493) plus this tool's custody checks: structure, bagit.txt, every checksum
 * in every payload and tag manifest, completeness, Payload-Oxum, the custody statement's subjects, and the DSSE
 * signature when a key is given. Pure: works on what read.ts gathered.
 */
import type { KeyObject } from 'node:crypto';
import { standaloneFinding } from '../checks/findings.js';
import { BUNDLE_CODES, type BundleCode } from '../checks/bundle-codes.js';
import type { Finding, Location, Severity } from '../model/finding.js';
import { parseBagInfo, parseManifest, unsafePath } from './bagit.js';
import { CUSTODY_PREDICATE } from './build.js';
import { envelopePayload, verifyEnvelope, type Envelope } from './dsse.js';
import { HASHES, type BagContents, type HashName } from './bag-contents.js';

const PAYLOAD_MANIFEST = /^manifest-([a-z0-9]+)\.txt$/;
const TAG_MANIFEST = /^tagmanifest-([a-z0-9]+)\.txt$/;

export interface VerifyContext {
  id: string;
  path: string;
  findings: Finding[];
}

export function emitter(ctx: VerifyContext) {
  return (
    code: BundleCode,
    location: Location,
    message: string,
    opts: { severity?: Severity; key?: string } = {},
  ): void => {
    ctx.findings.push(
      standaloneFinding(
        'bundle',
        code,
        opts.severity ?? BUNDLE_CODES[code].severity,
        ctx.id,
        ctx.path,
        location,
        message,
        opts.key,
      ),
    );
  };
}

interface Statement {
  _type?: string;
  subject?: Array<{ name?: string; digest?: Record<string, string> }>;
  predicateType?: string;
  predicate?: Record<string, unknown>;
}

export interface VerifyResult {
  statement?: Statement;
  redacted: boolean;
}

export function verifyBag(c: BagContents, ctx: VerifyContext, key?: KeyObject): VerifyResult {
  const emit = emitter(ctx);
  const members = c.members;
  const text = (name: string): string | undefined => members.get(name)?.bytes?.toString('utf8');
  for (const r of c.rejected) emit('BUNDLE_UNSAFE_PATH', { file: r.name }, `${r.why}; not read`, { key: r.name });
  for (const d of c.damaged) emit('BUNDLE_INVALID', { file: d.name }, d.why, { key: `damaged:${d.name}` });
  const damaged = new Set(c.damaged.map((d) => d.name));
  // A forged archive layout (a bomb's shape) was reported above and nothing of it was read: nothing else to check.
  if (c.hostile) return { redacted: false };

  // bagit.txt
  const bagit = text('bagit.txt');
  if (bagit === undefined)
    emit('BUNDLE_FILE_MISSING', { file: 'bagit.txt' }, 'bagit.txt is missing: this is not a bag');
  else {
    const lines = bagit
      .replace(/^\ufeff/, '\u0000')
      .split(/\r\n|\r|\n/)
      .filter((l) => l !== '');
    const v = /^BagIt-Version: (\d+)\.(\d+)$/.exec(lines[0] ?? '');
    if (lines.length !== 2 || !v || lines[1] !== 'Tag-File-Character-Encoding: UTF-8') {
      emit(
        'BUNDLE_INVALID',
        { file: 'bagit.txt', line: 1 },
        `bagit.txt must be exactly "BagIt-Version: M.N" and "Tag-File-Character-Encoding: UTF-8" (no BOM); found ` +
          `${JSON.stringify(bagit.slice(0, 120))}`,
      );
    } else if (v[1] !== '1' || v[2] !== '0') {
      emit(
        'BUNDLE_UNVERIFIED',
        { file: 'bagit.txt', line: 1 },
        `BagIt-Version ${v[1]}.${v[2]}: validated with the 1.0 rules`,
      );
    }
  }

  // fetch.txt (RFC 8493 §2.2.3): files to be fetched from elsewhere. Until they are, the bag is incomplete, and
  // nothing here fetches them: never "valid".
  if (members.has('fetch.txt')) {
    const listed = (text('fetch.txt') ?? '').split(/\r\n|\r|\n/).filter((l) => l.trim() !== '').length;
    emit(
      'BUNDLE_FILE_MISSING',
      { file: 'fetch.txt' },
      `the bag lists ${listed} file${listed === 1 ? '' : 's'} to fetch from elsewhere (fetch.txt): it is incomplete ` +
        'until they are fetched, and what they hold was not checked',
      { key: 'fetch.txt' },
    );
  }

  const checkManifests = (re: RegExp, payload: boolean): Map<string, Set<string>> => {
    const names = [...members.keys()].filter((n) => re.test(n)).sort();
    const listedIn = new Map<string, Set<string>>();
    /** Per file: the manifest lines it is missing from / disagrees with (one finding per file, not per manifest). */
    const missing = new Map<string, string[]>();
    const mismatched = new Map<string, Mismatch[]>();
    let checkable = 0;
    for (const m of names) {
      const alg = re.exec(m)![1]!;
      const known = (HASHES as readonly string[]).includes(alg);
      if (!known)
        emit(
          'BUNDLE_UNVERIFIED',
          { file: m },
          `checksum algorithm ${JSON.stringify(alg)} is not supported here: its digests were not checked`,
        );
      else if (alg === 'sha256' || alg === 'sha512') checkable++;
      const parsed = parseManifest(text(m) ?? '');
      for (const l of parsed.bad)
        emit('BUNDLE_INVALID', { file: m, line: l }, 'not a "<checksum> <path>" line', { key: `${m}:${l}` });
      const seen = new Set<string>();
      listedIn.set(m, seen);
      for (const e of parsed.entries) {
        const loc = { file: m, line: e.line };
        if (e.path.startsWith('data/') !== payload || unsafePath(e.path)) {
          emit(
            'BUNDLE_INVALID',
            loc,
            `${JSON.stringify(e.path)} is not ${payload ? 'a path under data/' : 'a tag file'}`,
            { key: `${m}:${e.path}` },
          );
          continue;
        }
        if (seen.has(e.path))
          emit('BUNDLE_INVALID', loc, `${JSON.stringify(e.path)} is listed twice`, { key: `${m}:${e.path}:dup` });
        seen.add(e.path);
        const member = members.get(e.path);
        if (!member) {
          if (!damaged.has(e.path)) missing.set(e.path, [...(missing.get(e.path) ?? []), `${m}:${e.line}`]);
        } else if (known && member.digests[alg as HashName] !== e.digest) {
          mismatched.set(e.path, [
            ...(mismatched.get(e.path) ?? []),
            { where: `${m}:${e.line}`, alg, recorded: e.digest, actual: member.digests[alg as HashName] },
          ]);
        }
      }
    }
    for (const [f, where] of missing)
      emit('BUNDLE_FILE_MISSING', { file: f }, `listed in ${where.join(', ')} but not in the bag`);
    for (const [f, list] of mismatched) emit('BUNDLE_MANIFEST_MISMATCH', { file: f }, mismatchMessage(list));
    if (payload && !names.length)
      emit('BUNDLE_INVALID', { file: '' }, 'no payload manifest (manifest-<algorithm>.txt)');
    if (names.length && !checkable)
      emit('BUNDLE_UNVERIFIED', { file: names[0]! }, 'only weak or unknown checksum algorithms: use sha256 or sha512');
    return listedIn;
  };

  // Payload manifests: every file under data/ in every one of them (RFC 8493 §3), then the tag manifests.
  const listedIn = checkManifests(PAYLOAD_MANIFEST, true);
  const payloadFiles = [...members.keys()].filter((n) => n.startsWith('data/'));
  for (const f of payloadFiles.sort()) {
    const not = [...listedIn].filter(([, seen]) => !seen.has(f)).map(([m]) => m);
    if (not.length)
      emit(
        'BUNDLE_FILE_EXTRA',
        { file: f },
        `in data/ but not listed in ${not.join(', ')}: added after the bag was made`,
      );
  }
  checkManifests(TAG_MANIFEST, false);

  // bag-info.txt
  const infoText = text('bag-info.txt');
  const info = infoText === undefined ? [] : parseBagInfo(infoText);
  const oxum = info.find(([k]) => k === 'Payload-Oxum')?.[1];
  if (oxum !== undefined) {
    const bytes = payloadFiles.reduce((n, f) => n + members.get(f)!.size, 0);
    if (oxum !== `${bytes}.${payloadFiles.length}`)
      emit(
        'BUNDLE_INVALID',
        { file: 'bag-info.txt' },
        `Payload-Oxum says ${oxum}, the payload is ${bytes}.${payloadFiles.length} (octets.files)`,
      );
  }
  const redacted = info.some(([k, v]) => k === 'Payload-Redacted' && v === 'yes');

  // Custody statement and signature
  const result: VerifyResult = { redacted };
  const dsseText = text('custody.dsse.json');
  const plainText = text('custody.intoto.json');
  if (dsseText !== undefined) {
    let env: Envelope | undefined;
    try {
      env = JSON.parse(dsseText) as Envelope;
      if (typeof env.payload !== 'string' || !Array.isArray(env.signatures)) throw new Error('shape');
    } catch {
      emit('BUNDLE_SIGNATURE_INVALID', { file: 'custody.dsse.json' }, 'not a DSSE envelope');
      env = undefined;
    }
    if (env) {
      if (key) {
        const v = verifyEnvelope(env, key);
        if (!v.valid)
          emit(
            'BUNDLE_SIGNATURE_INVALID',
            { file: 'custody.dsse.json' },
            `none of its ${v.total} signature(s) verifies with the given key` +
              (env.payloadType !== 'application/vnd.in-toto+json'
                ? ` (payload type ${JSON.stringify(env.payloadType)})`
                : ''),
          );
      } else
        emit(
          'BUNDLE_UNVERIFIED',
          { file: 'custody.dsse.json' },
          'the custody statement is signed, but no --key was given to check the signature',
        );
      try {
        result.statement = JSON.parse(envelopePayload(env).toString('utf8')) as Statement;
      } catch {
        emit('BUNDLE_SIGNATURE_INVALID', { file: 'custody.dsse.json' }, 'its payload is not a JSON statement');
      }
    }
  } else if (key) {
    emit(
      'BUNDLE_SIGNATURE_INVALID',
      { file: 'custody.dsse.json' },
      'a --key was given but the bag is not signed (no custody.dsse.json)',
    );
  }
  if (!result.statement && plainText !== undefined) {
    try {
      result.statement = JSON.parse(plainText) as Statement;
    } catch {
      emit('BUNDLE_MANIFEST_MISMATCH', { file: 'custody.intoto.json' }, 'the custody statement is not valid JSON');
    }
  }
  if (dsseText !== undefined && plainText !== undefined)
    emit(
      'BUNDLE_FILE_EXTRA',
      { file: 'custody.intoto.json' },
      'an unsigned custody statement beside the signed one (custody.dsse.json): not covered by the signature, ' +
        'not trusted; only the signed statement was checked',
      { key: 'second-custody' },
    );
  const st = result.statement;
  if (st && st.predicateType === CUSTODY_PREDICATE) {
    const signed = dsseText !== undefined;
    const file = signed ? 'custody.dsse.json' : 'custody.intoto.json';
    const subjects = new Set((st.subject ?? []).map((s) => s.name));
    // The statement pins every tag file but itself and the tag manifests: a tag file it does not name was added
    // (or renamed) after custody was recorded.
    for (const name of [...members.keys()].sort()) {
      if (name.startsWith('data/') || TAG_MANIFEST.test(name) || /^custody\.(dsse|intoto)\.json$/.test(name)) continue;
      if (!subjects.has(name))
        emit(
          'BUNDLE_FILE_EXTRA',
          { file: name },
          `a tag file the custody statement (${file}) does not name: added after custody was recorded` +
            (signed ? ', not covered by the signature' : ''),
          { key: `unpinned:${name}` },
        );
    }
    for (const s of st.subject ?? []) {
      const member = s.name !== undefined ? members.get(s.name) : undefined;
      if (!member) {
        emit(
          'BUNDLE_FILE_MISSING',
          { file: s.name ?? file },
          `the custody statement names ${JSON.stringify(s.name)} as a subject, but the bag does not hold it`,
          { key: `subject:${s.name}` },
        );
        continue;
      }
      // One finding per file: the first digest that disagrees (both do when a file was changed).
      const bad = Object.entries(s.digest ?? {}).find(
        ([alg, digest]) => (HASHES as readonly string[]).includes(alg) && member.digests[alg as HashName] !== digest,
      );
      if (bad) {
        const [alg, digest] = bad;
        emit(
          'BUNDLE_MANIFEST_MISMATCH',
          { file: s.name! },
          `the custody statement records ${alg} ${shortDigest(digest)}, the file has ` +
            `${shortDigest(member.digests[alg as HashName])}: ${s.name} was changed after custody was ` +
            `${signed ? 'signed' : 'recorded'}`,
          { key: `subject:${s.name}` },
        );
      }
    }
  }
  return result;
}

/** A digest shortened for reading (the full ones are in the JSON report's file list and the manifests). */
export const shortDigest = (d: string): string => (d.length > 24 ? `${d.slice(0, 12)}…${d.slice(-8)}` : d);

interface Mismatch {
  where: string;
  alg: string;
  recorded: string;
  actual: string;
}

function mismatchMessage(list: readonly Mismatch[]): string {
  const each = list.map(
    (x) => `${x.where} records ${x.alg} ${shortDigest(x.recorded)}, the file has ${shortDigest(x.actual)}`,
  );
  return `changed since bagging: ${each.join('; ')}`;
}
