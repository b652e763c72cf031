/**
 * The verdicts of `verify`, in words and as data (model/verdict.ts): what a bag proves (unsigned: intact since it
 * was made, not who made it; signed and verified: by whom), how a live session compares with it (the side that
 * changed is named only when the bag's signature verified), and what a store's chain proves and recorded (every
 * rewrite, deletion and acknowledged gap).
 */
import type { Finding } from '../model/finding.js';
import type { LiveVerdict, ProvenanceVerdict, SignatureVerdict, StoreRecorded, Verdict } from '../model/verdict.js';

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

const countOf = (findings: readonly Finding[], severity: string): number =>
  findings.filter((f) => f.severity === severity).length;

/** "signed by alice (sha256:…), signature verified", or without a key id "signed by the key sha256:…, …". */
function signedBy(s: SignatureVerdict, several = false): string {
  const who = s.keyId !== undefined ? `${s.keyId} (${s.fingerprint})` : `the key ${s.fingerprint}`;
  return `signed by ${who}, signature${several ? 's' : ''} verified`;
}

/** How the counts start a verdict: "INVALID: 2 errors", "consistent", "consistent, with 1 warning (above)". */
function head(errors: number, warnings: number): string {
  if (errors) return `INVALID: ${plural(errors, 'error')} (above)`;
  return warnings ? `consistent, with ${plural(warnings, 'warning')} (above)` : 'consistent';
}

/** A bag's verdict from its own findings and its signature. */
export function bagVerdict(own: readonly Finding[], signature: SignatureVerdict): Verdict {
  const errors = countOf(own, 'error');
  const warnings = countOf(own, 'warning');
  let proven: Verdict['proven'];
  let why: string;
  if (errors) {
    proven = 'nothing';
    why = 'nothing is proven of this bag';
  } else if (signature.present && signature.verified) {
    proven = 'signed';
    why = `${signedBy(signature)}: the bag is as the holder of that key made it`;
  } else {
    proven = 'intact';
    why = signature.present
      ? 'signed, but the signature was not checked (no --key): this shows the bag is intact since it was made, ' +
        'not who made it'
      : 'unsigned: this shows the bag is intact since it was made, not who made it (anyone can remake an ' +
        "unsigned bag's manifests and custody statement)";
  }
  return {
    subject: 'bag',
    status: errors ? 'invalid' : 'consistent',
    proven,
    errors,
    warnings,
    signature,
    text: `${head(errors, warnings)}; ${why}`,
  };
}

/** Why a bag cannot be taken for what was captured. */
function untrusted(bag: Verdict): string {
  if (bag.status === 'invalid') return 'the bag itself is INVALID';
  if (!bag.signature.present) return 'the bag is unsigned (anyone can remake it)';
  return "the bag's signature was not checked (no --key)";
}

/** Where a finding of the live side lies: `file:line`, with the session when several were compared. */
function placeOf(f: Finding, several: boolean): string {
  const line = f.location.line !== undefined ? `:${f.location.line}` : '';
  return `${several ? `${f.sessionPath}/` : ''}${f.location.file || '.'}${line}`;
}

/**
 * The live session(s) held against the bag. Which side changed can be told only when the bag's signature verified:
 * an unsigned bag (or one whose signature was not checked) may be the side that was edited.
 */
export function liveVerdict(live: readonly Finding[], sessions: number, bag: Verdict): LiveVerdict {
  const errors = countOf(live, 'error');
  const warnings = countOf(live, 'warning');
  const trusted = bag.proven === 'signed';
  const several = new Set(live.map((f) => f.sessionPath)).size > 1;
  const places = [...new Set(live.filter((f) => f.severity === 'error').map((f) => placeOf(f, several)))];
  const them = sessions === 1 ? 'the live session' : 'the live sessions';
  let text: string;
  if (errors) {
    const shown = places.slice(0, 5).join(', ') + (places.length > 5 ? `, and ${places.length - 5} more` : '');
    text = trusted
      ? `CHANGED since the capture, not only by appends: ${plural(errors, 'error')} (above), at ${shown}`
      : `the bag and ${them} differ at ${shown} (${plural(errors, 'error')}, above); ${untrusted(bag)}, so which ` +
        'side changed cannot be told';
  } else {
    const basis = trusted ? 'the capture' : 'the bag';
    text = warnings
      ? `consistent with ${basis}, with ${plural(warnings, 'warning')} (above)`
      : `consistent with ${basis} (every file unchanged or only appended to, as proved above)`;
  }
  return {
    status: errors ? 'differs' : 'consistent',
    ...(errors ? { changed: trusted ? ('live' as const) : ('unknown' as const) } : {}),
    errors,
    warnings,
    places,
    text,
  };
}

/** A store's verdict: its findings, how many records are signed and verified, and what the chain recorded. */
export function storeVerdict(
  findings: readonly Finding[],
  signature: SignatureVerdict,
  recorded: StoreRecorded,
): Verdict {
  const errors = countOf(findings, 'error');
  const warnings = countOf(findings, 'warning');
  const { records, signed } = recorded;
  let proven: Verdict['proven'];
  let why: string;
  if (errors || records === 0) {
    proven = 'nothing';
    why = 'nothing is proven of this store';
  } else if (signed && signature.verified) {
    proven = 'signed';
    const which = signed === records ? `every record (${records})` : `${signed} of ${records} records`;
    const rest =
      signed === records
        ? ''
        : `; the ${plural(records - signed, 'record')} before them show only that they are as written, not who ` +
          'wrote them';
    const whose = signed === records ? 'every record is' : 'those records are';
    why = `${which} ${signedBy(signature, true)}: ${whose} as the holder of that key wrote it${rest}`;
  } else {
    proven = 'intact';
    why = signed
      ? `${signed} of ${records} records signed, but the signatures were not checked (no --key): the chain shows ` +
        'the records are as archive wrote them, not who wrote them'
      : 'unsigned (0 signed): the chain shows the records are as archive wrote them, against anyone who did not ' +
        'rewrite the whole chain and its head, not who wrote them';
  }
  return {
    subject: 'store',
    status: errors ? 'invalid' : 'consistent',
    proven,
    errors,
    warnings,
    signature,
    text: `${head(errors, warnings)}; ${why}`,
    store: recorded,
  };
}

/** The lines after a store's verdict: every rewrite, deletion and acknowledged gap the chain recorded (or none). */
export function recordedLines(r: StoreRecorded): string[] {
  const out: string[] = [];
  for (const w of r.rewrites) {
    // A session stored as one file is named by that file: it is not repeated after it.
    const file = w.session === w.file || w.session.endsWith(`/${w.file}`) ? w.session : `${w.session}/${w.file}`;
    out.push(
      `  rewrite recorded by capture ${w.seq}: ${file}${w.line !== undefined ? `:${w.line}` : ''}: an append-only ` +
        'log no longer started with its previous capture (the version before it stays in the store)',
    );
  }
  for (const d of r.deletions) out.push(`  deletion recorded by capture ${d.seq}: ${d.session}`);
  for (const g of r.gaps)
    out.push(
      `  gap acknowledged by record ${g.seq}` +
        `${g.lost ? ` (capture numbers ${g.lost.from}-${g.lost.to} are not in the chain)` : ''}: by ${g.by}: ` +
        JSON.stringify(g.reason),
    );
  return out;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const int = (v: unknown): v is number => Number.isInteger(v);

/** The provenance a custody statement records (bundle --from-store), when it is there and well formed. */
export function provenanceOf(predicate: Record<string, unknown> | undefined): ProvenanceVerdict | undefined {
  const p = predicate?.provenance;
  if (!isObj(p) || p.from !== 'store' || !isObj(p.record) || !isObj(p.chainHead) || !Array.isArray(p.findings))
    return undefined;
  const { record, chainHead } = p;
  if (typeof p.store !== 'string' || !int(p.capture) || typeof p.run !== 'string' || typeof p.status !== 'string')
    return undefined;
  if (typeof record.sha256 !== 'string' || !int(chainHead.seq) || typeof chainHead.sha256 !== 'string')
    return undefined;
  const findings: ProvenanceVerdict['findings'] = [];
  for (const f of p.findings) {
    if (!isObj(f) || !int(f.seq) || typeof f.code !== 'string' || typeof f.file !== 'string') return undefined;
    findings.push({ seq: f.seq, code: f.code, file: f.file, ...(int(f.line) ? { line: f.line } : {}) });
  }
  return {
    store: p.store,
    capture: p.capture,
    run: p.run,
    status: p.status,
    recordSha256: record.sha256,
    recordSigned: record.signed === true,
    chainHead: { seq: chainHead.seq, sha256: chainHead.sha256 },
    findings,
  };
}

/** The lines after a bag's verdict that say where it records it came from (whose word that is: the verdict's). */
export function provenanceLines(p: ProvenanceVerdict, proven: Verdict['proven']): string[] {
  const word = proven === 'signed' ? 'its signer says' : proven === 'intact' ? 'it says, unsigned' : 'it says';
  const out = [
    `  made from capture ${p.capture} (${p.run}, ${p.status}) of the store ${p.store} (${word}): record sha256 ` +
      `${p.recordSha256}${p.recordSigned ? ' (signed)' : ''}, the chain then ending at record ${p.chainHead.seq}`,
  ];
  for (const f of p.findings) {
    const where = `${f.file}${f.line !== undefined ? `:${f.line}` : ''}`;
    out.push(`  the store recorded on this session: capture ${f.seq}: ${f.code} ${where}`);
  }
  return out;
}
