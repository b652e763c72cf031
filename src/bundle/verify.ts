/**
 * A conforming BagIt validator (RFC 8493) plus this tool's custody checks: structure, bagit.txt, every checksum
 * in every payload and tag manifest, completeness, Payload-Oxum, the custody statement's subjects, and the DSSE
 * signature when a key is given (those two in verify-custody.ts). Pure: works on what read.ts gathered.
 */
import type { KeyObject } from 'node:crypto';
import { parseBagInfo, parseManifest, PAYLOAD_MANIFEST, TAG_MANIFEST, unsafePath } from './bagit.js';
import { HASHES, type BagContents, type HashName } from './bag-contents.js';
import { emitter, shortDigest, type VerifyContext } from './bag-findings.js';
import { checkCustody, type BagSignature, type Statement } from './verify-custody.js';

export interface VerifyResult {
  statement?: Statement;
  redacted: boolean;
  signature: BagSignature;
}

export function verifyBag(c: BagContents, ctx: VerifyContext, key?: KeyObject): VerifyResult {
  const emit = emitter(ctx);
  const members = c.members;
  const text = (name: string): string | undefined => members.get(name)?.bytes?.toString('utf8');
  for (const r of c.rejected) emit('BUNDLE_UNSAFE_PATH', { file: r.name }, `${r.why}; not read`, { key: r.name });
  for (const d of c.damaged) emit('BUNDLE_INVALID', { file: d.name }, d.why, { key: `damaged:${d.name}` });
  const damaged = new Set(c.damaged.map((d) => d.name));
  // A forged archive layout (a bomb's shape) was reported above and nothing of it was read: nothing else to check.
  if (c.hostile) return { redacted: false, signature: { present: false, verified: false } };

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

  // Custody statement and signature (verify-custody.ts)
  const { statement, signature } = checkCustody(c, emit, key);
  return { redacted, signature, ...(statement !== undefined ? { statement } : {}) };
}

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
