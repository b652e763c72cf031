/**
 * Grok's sandbox profiles as comparable grants (xai-grok-sandbox/src/profiles.rs, 18-sandbox.md): filesystem read
 * and write scopes over abstract regions, child-process network, and deny lists. "Wider" means grants more in
 * some dimension; incomparable profiles count as wider. Custom profiles come from sandbox.toml definitions.
 */

export const REGIONS = ['system', 'kernel', 'workspace', 'grok', 'tmp', 'data', 'home', 'other'] as const;
export type Region = (typeof REGIONS)[number];

export interface Profile {
  /** The name as recorded. */
  name: string;
  /** Canonical name (built-ins: workspace, devbox, read-only, strict, off; customs: as written). */
  canonical: string;
  kind: 'builtin' | 'custom';
  read: ReadonlySet<Region>;
  write: ReadonlySet<Region>;
  /** Child processes may use the network. */
  network: boolean;
  deny: ReadonlySet<string>;
  /** For customs: where the definition came from. */
  definedIn?: string;
}

const ALL = new Set<Region>(REGIONS);
const set = (...r: Region[]): Set<Region> => new Set(r);

const BUILTINS: Record<string, Omit<Profile, 'name'>> = {
  off: { canonical: 'off', kind: 'builtin', read: ALL, write: ALL, network: true, deny: new Set() },
  workspace: {
    canonical: 'workspace',
    kind: 'builtin',
    read: ALL,
    write: set('workspace', 'grok', 'tmp'),
    network: true,
    deny: new Set(),
  },
  devbox: {
    canonical: 'devbox',
    kind: 'builtin',
    read: ALL,
    write: set('system', 'workspace', 'grok', 'tmp', 'home', 'other'),
    network: true,
    deny: new Set(),
  },
  'read-only': {
    canonical: 'read-only',
    kind: 'builtin',
    read: ALL,
    write: set('grok', 'tmp'),
    network: false,
    deny: new Set(),
  },
  strict: {
    canonical: 'strict',
    kind: 'builtin',
    read: set('system', 'kernel', 'tmp', 'workspace', 'grok'),
    write: set('workspace', 'grok', 'tmp'),
    network: false,
    deny: new Set(),
  },
};

/** Grok's `ProfileName::from_str`: exact, case-sensitive; `readonly` and `none` are the only aliases. */
export function canonicalName(name: string): string {
  if (name === 'readonly') return 'read-only';
  if (name === 'none') return 'off';
  return name;
}

export const isBuiltin = (name: string): boolean => Object.hasOwn(BUILTINS, canonicalName(name));

/** Which region a path in a custom profile touches (relative paths resolve against the workspace). */
export function regionOf(path: string): Region {
  if (!path.startsWith('/')) return 'workspace'; // Grok expands neither ~ nor variables: relative to the workspace
  const top = path.split('/')[1] ?? '';
  if (top === 'data') return 'data';
  if (top === 'tmp' || path.startsWith('/var/tmp') || path.startsWith('/private/tmp')) return 'tmp';
  if (top === 'proc' || top === 'sys' || top === 'dev') return 'kernel';
  if (/\/\.grok(\/|$)/.test(path)) return 'grok';
  if (top === 'home' || top === 'Users' || top === 'root') return 'home';
  if (
    [
      'usr',
      'lib',
      'lib64',
      'bin',
      'sbin',
      'etc',
      'var',
      'run',
      'opt',
      'System',
      'Library',
      'private',
      'nix',
      'snap',
    ].includes(top)
  )
    return 'system';
  return 'other';
}

export interface ProfileConfig {
  extends?: string;
  restrict_network?: boolean;
  read_only?: string[];
  read_write?: string[];
  deny?: string[];
}

export class ProfileBook {
  /** Custom profiles by name; the first definition wins (user file before project file, as Grok merges them). */
  private readonly customs = new Map<string, { config: ProfileConfig; file: string }>();
  readonly problems: string[] = [];

  add(file: string, profiles: Record<string, ProfileConfig>): void {
    for (const [name, config] of Object.entries(profiles)) {
      if (isBuiltin(name)) {
        this.problems.push(`${file}: [profiles.${name}] can never be used: a built-in profile has that name`);
        continue;
      }
      if (!this.customs.has(name)) this.customs.set(name, { config, file });
    }
  }

  get size(): number {
    return this.customs.size;
  }

  /** The grants of a recorded profile name, or undefined for a custom name with no definition. */
  resolve(name: string): Profile | undefined {
    const canon = canonicalName(name);
    const b = BUILTINS[canon];
    if (b) return { name, ...b };
    const c = this.customs.get(name);
    if (!c) return undefined;
    const baseName = canonicalName(c.config.extends ?? 'workspace');
    const base = BUILTINS[baseName];
    if (!base || baseName === 'off') {
      this.problems.push(
        `${c.file}: [profiles.${name}] extends ${JSON.stringify(c.config.extends)}, which is not a built-in Grok ` +
          `accepts as a base`,
      );
      return undefined;
    }
    const read = new Set(base.read);
    const write = new Set(base.write);
    for (const p of c.config.read_only ?? []) read.add(regionOf(p));
    for (const p of c.config.read_write ?? []) {
      read.add(regionOf(p));
      write.add(regionOf(p));
    }
    return {
      name,
      canonical: name,
      kind: 'custom',
      read,
      write,
      network: c.config.restrict_network === undefined ? base.network : !c.config.restrict_network,
      deny: new Set(c.config.deny ?? []),
      definedIn: c.file,
    };
  }
}

export interface Comparison {
  /** a grants something b does not (in any dimension). */
  wider: boolean;
  /** b grants something a does not. */
  narrower: boolean;
  /** What a grants beyond b, in words. */
  gains: string[];
  losses: string[];
}

/** Compare `a` (the descendant) with `b` (its origin). */
export function compare(a: Profile, b: Profile): Comparison {
  const gains: string[] = [];
  const losses: string[] = [];
  const diff = (x: ReadonlySet<Region>, y: ReadonlySet<Region>): Region[] => [...x].filter((r) => !y.has(r));
  const rg = diff(a.read, b.read);
  const rl = diff(b.read, a.read);
  const wg = diff(a.write, b.write);
  const wl = diff(b.write, a.write);
  if (rg.length) gains.push(`reads ${rg.join(', ')}`);
  if (rl.length) losses.push(`reads ${rl.join(', ')}`);
  if (wg.length) gains.push(`writes ${wg.join(', ')}`);
  if (wl.length) losses.push(`writes ${wl.join(', ')}`);
  if (a.network && !b.network) gains.push('child processes reach the network');
  if (!a.network && b.network) losses.push('child processes reach the network');
  const dg = [...b.deny].filter((d) => !a.deny.has(d));
  const dl = [...a.deny].filter((d) => !b.deny.has(d));
  if (dg.length) gains.push(`no longer denies ${dg.join(', ')}`);
  if (dl.length) losses.push(`also denies ${dl.join(', ')}`);
  return { wider: gains.length > 0, narrower: losses.length > 0, gains, losses };
}
