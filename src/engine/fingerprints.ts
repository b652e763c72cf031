/**
 * The last step of a session's audit: each finding's fingerprint gets a digest of the bytes it points at (the line
 * at its byte offset, or exactly its byte range), read back from the session once, per file, after the audit.
 */
import { bytesDigest, finishFingerprints } from '../checks/findings.js';
import type { Finding } from '../model/finding.js';
import type { SessionSource } from '../model/source.js';

/** The most bytes of one finding's line that go into its digest (its length always does). */
export const DIGEST_MAX_BYTES = 1 << 20;

export function fingerprintSession(source: SessionSource | undefined, findings: readonly Finding[]): void {
  const digests = new Map<Finding, string>();
  if (source) {
    const byFile = new Map<string, Finding[]>();
    for (const f of findings) {
      if (f.location.file === '' || f.location.byteOffset === undefined) continue;
      const list = byFile.get(f.location.file) ?? [];
      list.push(f);
      byFile.set(f.location.file, list);
    }
    for (const [file, list] of byFile) {
      const r = source.readSpans(
        file,
        list.map((f) => {
          const len = f.location.byteLength;
          return {
            offset: f.location.byteOffset!,
            max: len !== undefined ? Math.min(len, DIGEST_MAX_BYTES) : DIGEST_MAX_BYTES,
            line: len === undefined,
          };
        }),
      );
      if (!r.ok) continue;
      list.forEach((f, i) => {
        const bytes = r.value[i]!;
        digests.set(f, `${bytesDigest(bytes)}:${f.location.byteLength ?? bytes.length}`);
      });
    }
  }
  finishFingerprints(findings, (f) => digests.get(f));
}
