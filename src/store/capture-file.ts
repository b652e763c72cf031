/**
 * One file version into the store. The file is read once (pinned to the walked path, like every evidence read)
 * and its stamps taken at open and close; if the previous capture's bytes are a prefix of it, only the bytes after
 * that prefix become a new piece (a grown log costs its new bytes), else the whole file is one piece. A piece is
 * written under tmp/, fsynced and renamed to its sha256 name; a piece the store already holds costs nothing.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, existsSync, ftruncateSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { streamFile } from '../read/files.js';
import { FILE_MODE } from './guard.js';
import { ensureDir, objectPath, syncLater, tmpName } from './layout.js';

export interface Version {
  sha256: string;
  size: number;
  pieces: string[];
}

export interface CapturedVersion extends Version {
  stamp: string;
  /** The previous version is a byte prefix of this one. */
  grew: boolean;
  /** Bytes written to new objects (0: nothing new stored). */
  stored: number;
  objects: number;
}

/** The file changed while it was read (its stamps at open and close differ): read it again later. */
export class ChangedWhileRead extends Error {}

const EMPTY = createHash('sha256').digest('hex');

export function captureFile(store: string, abs: string | Buffer, prev: Version | undefined): CapturedVersion {
  const tmp = tmpName(store);
  const fd = openSync(tmp, 'wx', FILE_MODE);
  const prefixLen = prev ? prev.size : -1;
  const whole = createHash('sha256');
  const prefix = createHash('sha256');
  let piece: Hash = createHash('sha256');
  let pos = 0;
  let written = 0;
  let grew: boolean | undefined = prefixLen === 0 ? prev!.sha256 === EMPTY : undefined;
  const write = (b: Buffer): void => {
    let off = 0;
    while (off < b.length) off += writeSync(fd, b, off, b.length - off, written + off);
    written += b.length;
    piece.update(b);
  };
  const decide = (): void => {
    grew = prefix.digest('hex') === prev!.sha256;
    if (grew) {
      // The previous version's bytes are stored already: keep only what follows them.
      ftruncateSync(fd, 0);
      written = 0;
      piece = createHash('sha256');
    }
  };
  let read: ReturnType<typeof streamFile>;
  try {
    read = streamFile(
      abs,
      (chunk) => {
        whole.update(chunk);
        if (grew === undefined && prefixLen > 0 && pos < prefixLen) {
          const head = chunk.subarray(0, Math.min(chunk.length, prefixLen - pos));
          prefix.update(head);
          write(head);
          pos += head.length;
          if (pos === prefixLen) decide();
          if (head.length < chunk.length) write(chunk.subarray(head.length));
          pos += chunk.length - head.length;
          return;
        }
        write(chunk);
        pos += chunk.length;
      },
      { pinned: true, stamp: true },
    );
    if (grew === undefined) grew = false;
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  const [opened, closed] = read.stamps!;
  if (opened !== closed) {
    rmSync(tmp, { force: true });
    throw new ChangedWhileRead(`changed while it was read`);
  }
  const out = { sha256: read.sha256, size: read.size, stamp: closed!, grew: grew === true, stored: 0, objects: 0 };
  if (grew && written === 0) {
    rmSync(tmp, { force: true });
    return { ...out, pieces: [...prev!.pieces] };
  }
  const name = piece.digest('hex');
  const pieces = grew ? [...prev!.pieces, name] : [name];
  const r = putObject(store, tmp, name);
  return { ...out, pieces, stored: r ?? 0, objects: r === undefined ? 0 : 1 };
}

/** Move a fsynced temp file to the object `name`; returns its size (undefined: the store held it already). */
function putObject(store: string, tmp: string, name: string): number | undefined {
  const target = objectPath(store, name);
  const size = statSync(tmp).size;
  // An object of another size under this name was cut short (a power loss before its checkpoint): replaced.
  if (existsSync(target) && statSync(target).size === size) {
    rmSync(tmp, { force: true });
    return undefined;
  }
  const dir = join(target, '..');
  ensureDir(dir);
  renameSync(tmp, target);
  syncLater(target);
  return size;
}
