/**
 * `bundle --from-store`: a capture of the evidence store written back out to a private temporary directory, at the
 * path the session had, with its neighbours as they were, then bundled exactly as the live session is; the bag
 * records where it came from (the capture, its record, the chain's end, the store's findings about the session).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, resolve } from 'node:path';
import type { StoreProvenance } from '../bundle/provenance.js';
import { UsageError } from '../errors.js';
import { escapeText, fsPath, plainText } from '../read/names.js';
import { privateTempDir } from '../read/private-temp.js';
import { materialize, neighbours, StoredVersionDamaged } from '../store/materialize.js';
import { readState, StoreError } from '../store/open.js';
import type { CaptureRecord } from '../store/record.js';
import { selectCapture } from '../store/select.js';
import { storeOf } from './archive.js';
import { runBundle, type BundleOutcome, type BundleRequest } from './bundle.js';

/** What a bag made from a capture records of it: the capture, its record, the chain's end, the store's findings. */
function provenanceOf(state: ReturnType<typeof readState>, picked: CaptureRecord, store: string): StoreProvenance {
  const mine = state.records.filter((r) => r.session.key === picked.session.key);
  return {
    store,
    capture: picked.seq,
    run: picked.run,
    status: picked.status,
    sessionKey: picked.session.key,
    recordSha256: state.hashes.get(picked.seq)!,
    recordSigned: state.signed.get(picked.seq) ?? false,
    chainHead: { seq: state.seq, sha256: state.last! },
    findings: mine.flatMap((r) =>
      r.findings.map((f) => ({
        seq: r.seq,
        code: f.code,
        file: f.file,
        ...(f.line !== undefined ? { line: f.line } : {}),
        message: f.message,
      })),
    ),
    deletions: mine.filter((r) => r.status === 'deleted').map((r) => r.seq),
  };
}

export interface FromStoreRequest extends Omit<BundleRequest, 'paths'> {
  store: string;
  session: string;
  at?: number;
}

/**
 * `bundle --from-store`: the capture written out to a temporary directory at the path the session had relative
 * to the directory archive ran in (or, for an absolute path, below a temporary root), then bundled from there.
 */
export async function runBundleFromStore(
  req: FromStoreRequest,
): Promise<BundleOutcome & { capture: CaptureRecord; skipped: string[]; hint?: string }> {
  const store = storeOf(req.store, false);
  let state: ReturnType<typeof readState>;
  try {
    state = readState(store);
  } catch (e) {
    if (e instanceof StoreError) throw new UsageError(e.message);
    throw e;
  }
  const chosen = selectCapture(state.records, req.session, req.at);
  if (typeof chosen === 'string') throw new UsageError(`--session ${req.session}: ${chosen}`);
  const picked = chosen.record;
  const home = picked.session.format === '' && picked.session.id.startsWith('home:');
  if (picked.session.format === '' && !home)
    throw new UsageError(
      `--session ${req.session}: the files of a group are kept for its sessions' bags; bundle one of its sessions`,
    );
  // The path as archive was given it, written out below a private directory: an absolute one under its root, one
  // that climbs out of archive's directory (`../live/…`) from as many directories down as it climbs.
  const display = picked.session.display;
  const normal = posix.normalize(isAbsolute(display) ? display.replace(/^\/+/, '') : display);
  const segments = normal.split('/');
  const up = segments.findIndex((x) => x !== '..');
  const climb = up < 0 ? segments.length : up;
  const rel = segments.slice(climb).join('/');
  if (rel === '' || rel === '.' || segments.slice(climb).includes('..'))
    throw new UsageError(`capture ${picked.seq}: the session's recorded path ${display} names no directory below it`);
  // A file session's members sit in the directory of the file it is shown by; a home's in the home itself.
  const dirRel = picked.session.members && !home ? dirname(rel) : rel;
  const out = resolve(req.out);
  const tmp = privateTempDir('from-store');
  const cwd = process.cwd();
  const here = join(tmp, ...Array.from({ length: climb }, (_, i) => `up${i}`));
  try {
    // Recorded paths are escaped (read/names.ts), the temp directory is not: escaped to join them.
    const top = escapeText(tmp);
    const skipped = materialize(store, picked, join(top, dirRel));
    // Its neighbours as they were, where the format looks for them (their own skipped entries do not matter).
    const groupRel = picked.session.members ? dirRel : dirname(dirRel);
    for (const n of home ? [] : neighbours(state.records, picked)) {
      const at = n.session.members ? groupRel : join(groupRel, basename(n.session.abs));
      if (!existsSync(fsPath(join(top, at))) || n.session.members) materialize(store, n, join(top, at));
    }
    mkdirSync(here, { recursive: true, mode: 0o700 });
    process.chdir(here);
    // The bag records the path the store holds (an absolute one keeps its leading slash) and where it came from.
    const absolute = isAbsolute(display);
    const r = await runBundle({
      ...req,
      out,
      paths: [plainText(climb ? normal : rel)],
      ...(absolute ? { shownAs: (p: string) => (isAbsolute(p) ? p : `/${p}`) } : {}),
      provenance: provenanceOf(state, picked, req.store),
    });
    return {
      ...r,
      out: req.out,
      capture: picked,
      skipped,
      ...(chosen.hint !== undefined ? { hint: chosen.hint } : {}),
    };
  } catch (e) {
    if (e instanceof StoredVersionDamaged) throw new UsageError(`--store ${req.store}: ${e.message}`);
    throw e;
  } finally {
    process.chdir(cwd);
    rmSync(tmp, { recursive: true, force: true });
  }
}
