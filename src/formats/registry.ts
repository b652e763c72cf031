/**
 * The formats this build understands, tried in order, and discovery's detectors over them. The one place that
 * imports the agents' folders: adding an agent is adding its folder and a line to FORMATS.
 */
import type { FormatModule } from './types.js';
import type { DirProbe, Detectors, FileSessionHit, FoundSession } from '../model/found.js';
import { grok } from './grok/index.js';
import { codex } from './codex/index.js';
import { claude } from './claude/index.js';
import { pi } from './pi/index.js';
import { hermes } from './hermes/index.js';
import { copilot } from './copilot/index.js';
import { gemini } from './gemini/index.js';
import { opencode } from './opencode/index.js';

/** Every format, in the order detection tries them (a const tuple, so the catalog keeps each check's code types). */
export const FORMATS = [
  grok,
  codex,
  claude,
  pi,
  hermes,
  copilot,
  gemini,
  opencode,
] as const satisfies readonly FormatModule[];

export const FORMAT_NAMES: readonly string[] = FORMATS.map((f) => f.name);

export const formatNamed = (name: string | undefined): FormatModule | undefined => FORMATS.find((f) => f.name === name);

/** The format of a found session: the one discovery recognised (or was told). */
export function formatOf(found: FoundSession): FormatModule {
  const f = formatNamed(found.format);
  if (!f) throw new Error(`session ${found.display} has no known format (${String(found.format)})`);
  return f;
}

/** What the sessions of every format (or of the hinted one) are on disk, for "no session found" messages. */
export function sessionNouns(hint?: string): string {
  return FORMATS.filter((f) => hint === undefined || f.name === hint)
    .map((f) => f.sessionNoun)
    .join(', ');
}

/** How many of a file's first lines are looked at to recognise its format. */
const SNIFF_LINES = 8;

/** The format whose records a file's first bytes hold, among `formats` (undefined: none recognisably). */
export function sniffHead(head: Buffer, formats: readonly FormatModule[] = FORMATS): string | undefined {
  let text = head.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const pieces = text.split('\n');
  const partial = pieces.pop();
  const lines = pieces
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trim() !== '')
    .slice(0, SNIFF_LINES);
  const cut = lines.length < SNIFF_LINES && partial !== undefined && partial.trim() !== '' ? partial : undefined;
  for (const f of formats) if (f.sniff?.(lines, cut)) return f.name;
  return undefined;
}

const UUID_AT_END = /([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** A session id from a file name: the UUID it ends with (Codex rollouts, Claude transcripts), else its stem. */
export function idFromFileName(name: string): string {
  const stem = name.replace(/\.jsonl(\.zst)?$/, '');
  return UUID_AT_END.exec(stem)?.[1] ?? stem;
}

/** Discovery's detectors over every format, or only over the one `--format-hint` names. */
export function detectorsFor(hint?: string): Detectors {
  const formats: readonly FormatModule[] = hint === undefined ? FORMATS : FORMATS.filter((f) => f.name === hint);
  const sniffs = new WeakMap<DirProbe, Map<string, string | undefined>>();
  const sniff = (probe: DirProbe, name: string): string | undefined => {
    let memo = sniffs.get(probe);
    if (!memo) sniffs.set(probe, (memo = new Map()));
    if (memo.has(name)) return memo.get(name);
    const head = probe.head(name);
    // Recognised among all formats, so a hint never makes another agent's file this format's.
    const v = head === undefined ? undefined : sniffHead(head);
    memo.set(name, v);
    return v;
  };
  return {
    dir: (probe) => formats.find((f) => f.detect(probe.names) === 'session')?.name,
    fileKinds: formats.flatMap((f) => (f.fileNoun !== undefined ? [{ name: f.name, noun: f.fileNoun }] : [])),
    homeRoots: formats.flatMap((f) => f.homeRoots ?? []),
    // Each home an agent's roots lie in, once (Copilot CLI's `.copilot`, and `.config/copilot` of its early builds).
    homes: formats.flatMap((f) => {
      const home = f.home;
      if (!home) return [];
      const dirs = (f.homeRoots ?? []).map((root) => {
        const parts = root.split('/');
        // `.local/share/opencode`: the home is the agent's own folder under an XDG base, else the dot-directory.
        return parts[0] === '.local' || parts[0] === '.config' ? root : parts[0]!;
      });
      return [...new Set(dirs)].map((dir) => ({ dir, format: f.name, files: home.files }));
    }),
    // A directory that cannot be opened (a symlink, a name that is not UTF-8) stands in for a directory session.
    opaqueDir: () => (formats.find((f) => f.directorySessions) ?? formats[0]!).name,
    files(probe) {
      const hits: FileSessionHit[] = [];
      const taken = new Set<string>();
      for (const f of formats) {
        if (!f.detectFiles) continue;
        for (const hit of f.detectFiles(probe, { sniff: (name) => sniff(probe, name), hinted: hint === f.name })) {
          if (hit.members.some((m) => taken.has(m))) continue;
          for (const m of hit.members) taken.add(m);
          hits.push(hit);
        }
      }
      return hits;
    },
    orphan(probe) {
      for (const f of formats) {
        const hit = f.detectOrphan?.(probe);
        if (hit) return hit;
      }
      return undefined;
    },
    force(name) {
      // Only a format whose sessions are single files makes a session of any file (Hermes's database is recognised
      // by its bytes, never forced).
      if (hint === undefined || !formats[0]?.detectFiles || formats[0].fileNoun === undefined) return undefined;
      return { format: hint, id: idFromFileName(name), main: name, members: [name] };
    },
  };
}
