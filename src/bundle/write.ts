/**
 * Writing a bag as a directory, a zip, a tar or a tar.gz. Reproducible: entries in byte order, every entry dated
 * the bagging date (midnight UTC) and fixed modes, `append()` only (archiver's `.file()` orders by stat
 * completion and only warns on a missing file). Archives are written to a temporary name and renamed into place
 * only when complete.
 */
import {
  createWriteStream,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
  appendFileSync,
  existsSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BagEntry } from './build.js';

export type BundleFormat = 'zip' | 'tar' | 'tgz' | 'dir';

/**
 * The earliest and the latest day a zip entry is dated: MS-DOS dates start in 1980, and the zip writer (archiver's
 * compress-commons) dates anything from 2044 on 2043-12-31 23:59:58; tar entries are clamped alike.
 */
const ZIP_FIRST = Date.UTC(1980, 0, 1);
const ZIP_LAST = Date.UTC(2043, 11, 31);

/** The date every entry carries: the bagging date (YYYY-MM-DD) at midnight UTC, clamped to what a zip can hold. */
export function entryDate(baggingDate: string): Date {
  const ms = Date.parse(`${baggingDate}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`bagging date ${JSON.stringify(baggingDate)}: expected YYYY-MM-DD`);
  return new Date(Math.min(ZIP_LAST, Math.max(ZIP_FIRST, ms)));
}

export function formatOf(out: string): BundleFormat {
  if (out.endsWith('.zip')) return 'zip';
  if (out.endsWith('.tar.gz') || out.endsWith('.tgz')) return 'tgz';
  if (out.endsWith('.tar')) return 'tar';
  return 'dir';
}

/**
 * A payload producer that never errors: a file that cannot be read or changed (pass 2 checks it against pass 1)
 * ends its member early and is kept as the failure, which the writer throws once the archive stream is closed and
 * the temporary file removed. An error inside the archiver's streams would otherwise escape as an unhandled event.
 */
async function* guarded(chunks: AsyncIterable<Buffer>, fail: (e: unknown) => void): AsyncGenerator<Buffer> {
  try {
    yield* chunks;
  } catch (e) {
    fail(e);
  }
}

/**
 * Write the bag, every archive entry dated `date` (entryDate); `replace`: an existing bag at `out` is replaced,
 * only once the new one is complete.
 */
export async function writeBag(
  entries: readonly BagEntry[],
  out: string,
  format: BundleFormat,
  date: Date,
  replace = false,
): Promise<void> {
  if (format === 'dir') return writeDir(entries, out, replace);
  const tmp = join(dirname(out), `.${out.split('/').pop()}.partial-${process.pid}`);
  // archiver is loaded only when an archive is written (it is a tenth of a second of start-up).
  const { TarArchive, ZipArchive } = await import('archiver');
  const archive =
    format === 'zip'
      ? new ZipArchive({ zlib: { level: 9 } })
      : new TarArchive(format === 'tgz' ? { gzip: true, gzipOptions: { level: 9 } } : {});
  const sink = createWriteStream(tmp, { flags: 'wx', mode: 0o644 });
  let failure: unknown;
  const fail = (e: unknown): void => {
    failure ??= e;
  };
  archive.on('warning', fail);
  archive.on('error', fail);
  const done = pipeline(archive, sink);
  try {
    for (const e of entries) {
      if (e.dir) {
        archive.append(Buffer.alloc(0), { name: e.name, date, mode: 0o755 });
        continue;
      }
      const content = e.bytes ?? Readable.from(guarded(e.chunks!(), fail));
      archive.append(content, { name: e.name, date, mode: 0o644 });
    }
    await archive.finalize();
    await done;
    if (failure) throw failure;
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

async function writeDir(entries: readonly BagEntry[], out: string, replace: boolean): Promise<void> {
  if (!replace && existsSync(out) && readdirSync(out).length) throw new Error(`${out} exists and is not empty`);
  const tmp = `${out.replace(/\/+$/, '')}.partial-${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  try {
    for (const e of entries) {
      const path = join(tmp, e.name);
      if (e.dir) {
        mkdirSync(path, { recursive: true });
        continue;
      }
      mkdirSync(dirname(path), { recursive: true });
      if (e.bytes) writeFileSync(path, e.bytes, { mode: 0o644 });
      else {
        writeFileSync(path, Buffer.alloc(0), { mode: 0o644 });
        for await (const chunk of e.chunks!()) appendFileSync(path, chunk);
      }
    }
    if (existsSync(out)) rmSync(out, { recursive: true });
    renameSync(tmp, out);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}
