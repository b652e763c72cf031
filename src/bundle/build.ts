/**
 * A BagIt 1.0 bag of session evidence, as a sorted list of entries: bagit.txt, bag-info.txt, the payload under
 * data/, both payload manifests, the tag files (audit report, timelines, inventory, custody statement) and both
 * tag manifests. Deterministic: the bagging date is given, entries are sorted; the custody statement's subjects
 * are every other tag file, optionally signed as a DSSE envelope.
 */
import { createHash, type KeyObject } from 'node:crypto';
import { arch, platform, release } from 'node:os';
import { TOOL_VERSION } from '../version.js';
import type { FileRecord } from '../model/report.js';
import type { SessionSource } from '../model/source.js';
import type { Artifact, ArtifactRole } from '../model/session.js';
import { byteOrder } from '../model/order.js';
import { ALGORITHMS, BAGIT_TXT, bagInfoText, manifestText, payloadOxum, type BagInfo } from './bagit.js';
import { INTOTO_PAYLOAD_TYPE, signEnvelope } from './dsse.js';
import { planPayload, payloadChunks, type NotArchived, type PayloadFile } from './payload.js';
import type { Redactor } from './redact.js';
import { BagLayout, safePath } from './layout.js';
import { redactDerived, scrubSecrets, type SecretLedger } from './derived.js';
import { redactText } from './redact.js';
import { provenancePredicate, provenanceTags, type StoreProvenance } from './provenance.js';

export interface BundledSession {
  id: string;
  /** The session directory as the user named it. */
  path: string;
  /** Where its files go inside data/ (`<agent>/<id>`, made safe by layout.ts). */
  bagDir: string;
  /** The agent (format) and the group directory (e.g. the working directory) the session was found in. */
  agent: string;
  group?: string;
  source: SessionSource;
  /** What its format says each file is (by path). */
  artifacts: ReadonlyMap<string, Artifact>;
  /** An agent's home: the files it keeps beside its sessions (prompt histories, indexes), not a session. */
  kind?: 'home';
}

export interface BagEntry {
  name: string;
  /** Small content, or a producer of chunks for payload files. */
  bytes?: Buffer;
  chunks?: () => AsyncIterable<Buffer>;
  size: number;
  /** A directory entry (only `data/`, which must exist even when empty). */
  dir?: boolean;
}

export interface BagOptions {
  sources: readonly string[];
  sessions: readonly BundledSession[];
  baggingDate: string;
  redactor?: Redactor;
  customPatterns?: readonly string[];
  signKey?: KeyObject;
  keyId?: string;
  /** Extra tag files (audit report, timelines), by bag path. */
  tagFiles: ReadonlyMap<string, Buffer>;
  /** Bag-Group-Identifier: what the sessions have in common (their working directory); absent, the tag is too. */
  groupIdentifier?: string;
  /** Where the sessions came from when they were written out of the evidence store (`bundle --from-store`). */
  provenance?: StoreProvenance;
}

export interface Bag {
  entries: BagEntry[];
  payload: PayloadFile[];
  notArchived: NotArchived[];
  /** Files `--redact` left out (not text): the analysis read them, the payload has none of them. */
  withheld: Array<{ source: SessionSource; rel: string }>;
  identity: { manifestSha256: string; manifestSha512: string };
}

export const CUSTODY_PREDICATE = 'https://session-audit.invalid/custody/v1';

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const json = (v: unknown): Buffer => text(`${JSON.stringify(v, null, 2)}\n`);

export function buildBag(opts: BagOptions): Bag {
  const files: Array<{ source: SessionSource; rel: string; bagPath: string; role?: ArtifactRole }> = [];
  const notArchived: NotArchived[] = [];
  const inventory: Array<FileRecord & { bagPath: string; archived: boolean; session: string }> = [];
  const layout = new BagLayout();
  for (const s of opts.sessions) {
    for (const e of s.source.inventory) {
      const bagPath = e.type === 'dir' ? `data/${s.bagDir}/${safePath(e.path)}` : layout.file(s.bagDir, e.path);
      const rec: FileRecord & { bagPath: string; archived: boolean; session: string } = {
        session: s.id,
        path: e.path,
        type: e.type,
        bagPath,
        archived: e.type === 'file' && e.readError === undefined,
      };
      if (e.rawPath !== undefined) rec.rawPath = e.rawPath;
      if (e.type === 'file') rec.size = e.size;
      if (e.linkTarget !== undefined) rec.linkTarget = e.linkTarget;
      if (e.readError !== undefined) rec.readError = e.readError;
      inventory.push(rec);
      if (e.type === 'dir') continue;
      const role = s.artifacts.get(e.path)?.role;
      if (rec.archived) files.push({ source: s.source, rel: e.path, bagPath, ...(role !== undefined ? { role } : {}) });
      else {
        const na: NotArchived = {
          bagPath,
          type: e.type,
          originalPath: e.path,
          reason: e.readError ? `unreadable (${e.readError})` : `a ${e.type}: recorded, never followed or opened`,
        };
        if (e.linkTarget !== undefined) na.linkTarget = e.linkTarget;
        notArchived.push(na);
      }
    }
  }
  const ledger: SecretLedger = new Map();
  const { payload, problems, withheld } = planPayload(files, opts.redactor, ledger);
  notArchived.push(...problems);
  for (const p of problems) {
    const rec = inventory.find((i) => i.bagPath === p.bagPath);
    if (rec) {
      rec.archived = false;
      rec.readError = p.reason;
    }
  }
  payload.sort((a, b) => byteOrder(a.bagPath, b.bagPath));

  const manifests = new Map<string, Buffer>();
  for (const alg of ALGORITHMS)
    manifests.set(`manifest-${alg}.txt`, text(manifestText(payload.map((p) => ({ path: p.bagPath, digest: p[alg] })))));
  const sha = (alg: 'sha256' | 'sha512', b: Buffer): string => createHash(alg).update(b).digest('hex');
  const m256 = manifests.get('manifest-sha256.txt')!;
  const m512 = manifests.get('manifest-sha512.txt')!;
  const redacted = opts.redactor !== undefined;

  const oxum = payloadOxum(
    payload.reduce((n, p) => n + p.size, 0),
    payload.length,
  );
  const homes = opts.sessions.filter((s) => s.kind === 'home').length;
  const info: BagInfo = [
    ['Bag-Software-Agent', `session-audit ${TOOL_VERSION}`],
    ['Bagging-Date', opts.baggingDate],
    ...opts.sessions.filter((s) => s.kind !== 'home').map((s): [string, string] => ['External-Identifier', s.id]),
    ...opts.sources.map((s): [string, string] => ['Source-Path', s]),
    ['Payload-Oxum', oxum],
    ['Bag-Size', `${payload.reduce((n, p) => n + p.size, 0)} bytes`],
    ...(opts.groupIdentifier !== undefined ? [['Bag-Group-Identifier', opts.groupIdentifier] as [string, string]] : []),
    [
      'Internal-Sender-Description',
      `Evidence bundle of ${opts.sessions.filter((s) => s.kind !== 'home').length} AI coding agent session(s)` +
        `${homes ? ` and ${homes} agent home(s)` : ''}, payload ` +
        `${redacted ? "REDACTED for sharing (originals' digests in custody.*.json)" : 'byte for byte'}`,
    ],
    ['Payload-Redacted', redacted ? 'yes' : 'no'],
    ...(redacted
      ? [['Redaction-Kinds', [...new Set(opts.redactor!.patterns.map((p) => p.kind))].join(' ')] as [string, string]]
      : []),
    ['Bag-Node-Version', process.version],
    ['Bag-Zlib-Version', process.versions.zlib ?? 'unknown'],
    ['Bag-Platform', `${platform()} ${release()} ${arch()}`],
    ...(opts.provenance ? provenanceTags(opts.provenance) : []),
  ];

  // Every tag file but the statement itself and the tag manifests (which hold the statement's digest) is a
  // subject: a signature then covers the analysis (audit report, timelines, inventory, bag-info) too.
  // With --redact, every member made from session text (the analysis, the inventory, bag-info) is redacted too.
  const derived = (b: Buffer, kind: 'json' | 'text'): Buffer =>
    opts.redactor ? redactDerived(b, kind, opts.redactor, ledger) : b;
  const pinned = new Map<string, Buffer>([
    ['bagit.txt', text(BAGIT_TXT)],
    ['bag-info.txt', derived(text(bagInfoText(info)), 'text')],
    ...manifests,
    ['inventory.json', derived(json({ files: inventory.sort((a, b) => byteOrder(a.bagPath, b.bagPath)) }), 'json')],
    ...[...opts.tagFiles].map(([name, b]): [string, Buffer] => [name, derived(b, 'json')]),
  ]);
  /** A string of the custody statement that holds session text (paths, link targets, read errors). */
  const own: Redactor | undefined = opts.redactor && { patterns: opts.redactor.patterns, counts: new Map() };
  const said = (v: string): string => (own ? scrubSecrets(redactText(v, own).text, ledger) : v);
  const statement = {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [...pinned.keys()].sort(byteOrder).map((name) => {
      const b = pinned.get(name)!;
      return { name, digest: { sha256: sha('sha256', b), sha512: sha('sha512', b) } };
    }),
    predicateType: CUSTODY_PREDICATE,
    predicate: {
      tool: { name: 'session-audit', version: TOOL_VERSION },
      baggingDate: opts.baggingDate,
      sources: opts.sources.map(said),
      sessions: opts.sessions.map((s) => ({
        id: said(s.id),
        path: said(s.path),
        agent: s.agent,
        ...(s.group !== undefined ? { group: said(s.group) } : {}),
        bagDir: `data/${s.bagDir}`,
        ...(s.kind ? { kind: s.kind } : {}),
      })),
      payloadOxum: oxum,
      ...(opts.provenance ? { provenance: provenancePredicate(opts.provenance, said) } : {}),
      redacted,
      ...(redacted
        ? {
            redaction: {
              kinds: [...new Set(opts.redactor!.patterns.map((p) => p.kind))],
              // A pattern may be a secret spelled out (`--redact-pattern 'hunter2…'`): only its digest is kept.
              customPatterns: (opts.customPatterns ?? []).map((src, i, all) => ({
                kind: all.length > 1 ? `custom-${i + 1}` : 'custom',
                sha256: sha('sha256', text(src)),
              })),
            },
          }
        : {}),
      files: payload.map((p) => ({
        path: p.bagPath,
        originalPath: said(p.rel),
        originalSha256: p.originalSha256,
        originalSize: p.originalSize,
        ...(redacted ? { redactions: p.redactions } : {}),
      })),
      notArchived: notArchived
        .sort((a, b) => byteOrder(a.bagPath, b.bagPath))
        .map((x) => ({
          ...x,
          reason: said(x.reason),
          ...(x.originalPath !== undefined ? { originalPath: said(x.originalPath) } : {}),
          ...(x.linkTarget !== undefined ? { linkTarget: said(x.linkTarget) } : {}),
        })),
    },
  };
  const statementBytes = text(JSON.stringify(statement));
  const custody: [string, Buffer] = opts.signKey
    ? ['custody.dsse.json', json(signEnvelope(statementBytes, opts.signKey, opts.keyId))]
    : ['custody.intoto.json', json(statement)];

  const tags = new Map<string, Buffer>([...pinned, custody]);
  for (const alg of ALGORITHMS) {
    const names = [...tags.keys()].sort(byteOrder);
    tags.set(
      `tagmanifest-${alg}.txt`,
      text(manifestText(names.map((n) => ({ path: n, digest: sha(alg, tags.get(n)!) })))),
    );
  }

  const entries: BagEntry[] = [
    // data/ is there even with no payload file (RFC 8493 §2.1.2; bagit-python requires it).
    { name: 'data/', size: 0, dir: true },
    ...[...tags].map(([name, bytes]) => ({ name, bytes, size: bytes.length })),
    ...payload.map((p) => ({ name: p.bagPath, size: p.size, chunks: () => payloadChunks(p, opts.redactor) })),
  ].sort((a, b) => byteOrder(a.name, b.name));
  return {
    entries,
    payload,
    notArchived,
    withheld,
    identity: { manifestSha256: sha('sha256', m256), manifestSha512: sha('sha512', m512) },
  };
}

export { INTOTO_PAYLOAD_TYPE };
