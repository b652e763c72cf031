/**
 * How a bag's verification reports: the context its findings go to, the emitter that makes each one a bundle
 * finding, and a digest shortened for their messages.
 */
import { standaloneFinding } from '../checks/findings.js';
import { BUNDLE_CODES, type BundleCode } from '../checks/bundle-codes.js';
import type { Finding, Location, Severity } from '../model/finding.js';

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

export type Emit = ReturnType<typeof emitter>;

/** A digest shortened for reading (the full ones are in the JSON report's file list and the manifests). */
export const shortDigest = (d: string): string => (d.length > 24 ? `${d.slice(0, 12)}…${d.slice(-8)}` : d);
