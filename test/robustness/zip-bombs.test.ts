/**
 * Archive bombs given to `verify` (issue 18 §4): zips whose central directory is forged (many entries over one
 * deflate stream, overlapping members, names that disagree with the local headers, sizes deflate cannot reach).
 * Each is a BUNDLE_INVALID finding found before anything is decompressed: verify ends at once, in bounded
 * memory (a 64 MiB heap), and never hashes what the forged entries claim.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { BUILT, runBuilt } from '../helpers/cli-child.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-zip-bombs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A deflate stream of `mib` MiB of zeros, about 1 KB per MiB (independent sync-flushed blocks, then the end). */
function zeros(mib: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1 << 20), { finishFlush: constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array<Buffer>(mib).fill(block), deflateRawSync(Buffer.alloc(0))]);
}

function localHeader(name: string, compSize: number, size: number): Buffer {
  const n = Buffer.from(name);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(8, 8);
  h.writeUInt32LE(compSize, 18);
  h.writeUInt32LE(size, 22);
  h.writeUInt16LE(n.length, 26);
  return Buffer.concat([h, n]);
}

function centralEntry(name: string, compSize: number, size: number, offset: number): Buffer {
  const n = Buffer.from(name);
  const h = Buffer.alloc(46);
  h.writeUInt32LE(0x02014b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 6);
  h.writeUInt16LE(8, 10);
  h.writeUInt32LE(compSize, 20);
  h.writeUInt32LE(size, 24);
  h.writeUInt16LE(n.length, 28);
  h.writeUInt32LE(offset, 42);
  return Buffer.concat([h, n]);
}

/** A zip of the given local area and central entries. */
function zip(body: Buffer, central: Buffer[]): Buffer {
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(body.length, 16);
  return Buffer.concat([body, cd, end]);
}

/** verify under a 64 MiB heap and a time budget; with `rss`, once more through the probe for the peak RSS. */
function verifyBomb(name: string, bytes: Buffer, rss = false) {
  const path = join(scratch, name);
  writeFileSync(path, bytes);
  const o = { maxOldSpaceMb: 64, timeoutMs: 30_000 };
  const r = runBuilt(['verify', path, '--format', 'json'], o);
  const peakRssMb = rss ? runBuilt(['verify', path], { ...o, rss: true }).peakRssMb : undefined;
  return { ...r, peakRssMb };
}

const findings = (stdout: string) =>
  (JSON.parse(stdout) as { findings: Array<{ code: string; message: string; location: { file: string } }> }).findings;

describe.skipIf(!BUILT)('verify refuses archive bombs before decompressing anything', () => {
  test('400 central entries over one deflate stream (16 MiB each, kept as tag files today)', () => {
    const stream = zeros(16);
    const body = Buffer.concat([localHeader('t0', stream.length, 16 << 20), stream]);
    const central = Array.from({ length: 400 }, (_, i) => centralEntry(`t${i}`, stream.length, 16 << 20, 0));
    const bomb = zip(body, central);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const r = verifyBomb('entries-400.zip', bomb, true);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    const f = findings(r.stdout);
    expect(f.filter((x) => x.code === 'BUNDLE_INVALID').length).toBeGreaterThanOrEqual(399);
    expect(f.find((x) => x.location.file === 't1')?.message).toMatch(/the local header names "t0"/);
    expect(r.peakRssMb).toBeLessThan(250);
    expect(r.ms).toBeLessThan(20_000);
  });

  test('100 entries of 1 GiB each, all over the same 1 MB of data/', () => {
    const stream = zeros(1024);
    const body = Buffer.concat([localHeader('data/f0', stream.length, 2 ** 30), stream]);
    const central = Array.from({ length: 100 }, (_, i) => centralEntry(`data/f${i}`, stream.length, 2 ** 30, 0));
    const r = verifyBomb('gib-100.zip', zip(body, central), true);
    expect(r.timedOut).toBe(false);
    expect(r.code).toBe(1);
    expect(findings(r.stdout).filter((x) => x.code === 'BUNDLE_INVALID').length).toBeGreaterThanOrEqual(99);
    expect(r.peakRssMb).toBeLessThan(250);
    // Hashing the first GiB alone would take longer than this on the slowest CI runner.
    expect(r.ms).toBeLessThan(20_000);
  });

  test('members whose data overlap, each named as its local header says', () => {
    const stream = zeros(4);
    const b = localHeader('data/b', stream.length, 4 << 20);
    const a = localHeader('data/a', b.length + stream.length, 4 << 20);
    const body = Buffer.concat([a, b, stream]);
    const r = verifyBomb(
      'overlap.zip',
      zip(body, [
        centralEntry('data/a', b.length + stream.length, 4 << 20, 0),
        centralEntry('data/b', stream.length, 4 << 20, a.length),
      ]),
    );
    expect(r.code).toBe(1);
    const f = findings(r.stdout);
    expect(f.map((x) => x.code)).toEqual(['BUNDLE_INVALID']);
    expect(f[0]!.message).toMatch(/shares bytes with "data\/a".*overlapping members/);
  });

  test('a member that claims more than deflate can expand to', () => {
    const stream = zeros(1);
    const body = Buffer.concat([localHeader('data/x', stream.length, 2 ** 31), stream]);
    const r = verifyBomb('ratio.zip', zip(body, [centralEntry('data/x', stream.length, 2 ** 31, 0)]));
    expect(r.code).toBe(1);
    expect(findings(r.stdout)[0]!.message).toMatch(/beyond what deflate can .*compression bomb/);
  });

  test('a central directory that claims more bytes than the file holds is one finding, never an allocation', () => {
    const stream = zeros(1);
    const body = Buffer.concat([localHeader('data/x', stream.length, 1 << 20), stream]);
    const bytes = zip(body, [centralEntry('data/x', stream.length, 1 << 20, 0)]);
    bytes.writeUInt32LE(0xfffffff0, bytes.length - 22 + 12);
    const r = verifyBomb('cd-size.zip', bytes, true);
    expect(r.code).toBe(1);
    expect(findings(r.stdout)[0]!.message).toMatch(/central directory .* lies beyond the end/);
    expect(r.peakRssMb).toBeLessThan(250);
  });
});
