/**
 * The effective configuration of an audit: each setting with where it came from (the command line, the config
 * file, the default), and what it did (findings hidden by each ignore, findings under each severity override). It
 * goes into every report, so a config that silenced codes or the gate can never do it unseen.
 */
import type { LoadedConfig } from '../config/load.js';
import type { SessionResult } from '../engine/report.js';
import type { FailOn, Finding, Severity } from '../model/finding.js';
import { byteOrder } from '../model/order.js';
import type { Configuration } from '../model/report.js';

export interface Settings {
  loaded: LoadedConfig;
  failOn: FailOn;
  failOnFrom: Configuration['failOnFrom'];
  /** Ignored codes, each with where it came from (the command line wins). */
  ignore: ReadonlyMap<string, 'option' | 'config'>;
  severity: ReadonlyMap<string, { severity: Severity; from: 'option' | 'config' }>;
  baseline?: { path: string; from: 'option' | 'config' };
}

/** Resolve flags over config: the sources of ignores and severity overrides. */
export function mergeSources<V>(
  fromConfig: Iterable<[string, V]>,
  fromOption: Iterable<[string, V]>,
): Map<string, { value: V; from: 'option' | 'config' }> {
  const m = new Map<string, { value: V; from: 'option' | 'config' }>();
  for (const [k, v] of fromConfig) m.set(k, { value: v, from: 'config' });
  for (const [k, v] of fromOption) m.set(k, { value: v, from: 'option' });
  return m;
}

export function effectiveConfiguration(
  s: Settings,
  results: readonly Pick<SessionResult, 'ignored'>[],
  findings: readonly Finding[],
): Configuration {
  const hidden = new Map<string, number>();
  for (const r of results)
    for (const [code, n] of Object.entries(r.ignored ?? {})) hidden.set(code, (hidden.get(code) ?? 0) + n);
  const perCode = new Map<string, number>();
  for (const f of findings) perCode.set(f.code, (perCode.get(f.code) ?? 0) + 1);
  const c: Configuration = {
    file: s.loaded.path ?? null,
    failOn: s.failOn,
    failOnFrom: s.failOnFrom,
    ignore: [...s.ignore]
      .sort(([a], [b]) => byteOrder(a, b))
      .map(([code, from]) => ({ code, from, hidden: hidden.get(code) ?? 0 })),
    severity: [...s.severity]
      .sort(([a], [b]) => byteOrder(a, b))
      .map(([code, v]) => ({ code, severity: v.severity, from: v.from, findings: perCode.get(code) ?? 0 })),
    baseline: s.baseline ? { path: s.baseline.path, from: s.baseline.from } : null,
    fingerprintVersion: 2,
  };
  if (s.loaded.skipped) return { file: c.file, skipped: s.loaded.skipped.path, ...withoutFile(c) };
  return c;
}

const withoutFile = ({ file: _file, ...rest }: Configuration): Omit<Configuration, 'file'> => rest;
