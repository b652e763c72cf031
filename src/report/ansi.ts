/**
 * Terminal colours, drawn by chalk: SGR sequences around text when colour is on, the text itself when it is off.
 * Whether colour is on is the caller's decision (`--color` / `--no-color`, FORCE_COLOR, NO_COLOR, a terminal: see
 * cli/options.ts), never chalk's own guess from the environment, so a renderer's output depends on its input only.
 */
import { createRequire } from 'node:module';

/** chalk, loaded the first time colour is on: a pipe or a file never pays for it (require(esm), Node ≥ 20.19). */
let chalk: typeof import('chalk') | undefined;
const loadChalk = (): typeof import('chalk') =>
  (chalk ??= createRequire(import.meta.url)('chalk') as typeof import('chalk'));

export type Paint = (s: string) => string;

export interface Colors {
  on: boolean;
  bold: Paint;
  dim: Paint;
  red: Paint;
  redBold: Paint;
  yellow: Paint;
  cyan: Paint;
  green: Paint;
  grey: Paint;
}

const plain: Paint = (s) => s;

export function colors(on: boolean): Colors {
  if (!on)
    return {
      on,
      bold: plain,
      dim: plain,
      red: plain,
      redBold: plain,
      yellow: plain,
      cyan: plain,
      green: plain,
      grey: plain,
    };
  // Level 1: the 16 basic colours, which every terminal draws.
  const k = new (loadChalk().Chalk)({ level: 1 });
  const paint =
    (p: (s: string) => string): Paint =>
    (s) =>
      p(s);
  return {
    on,
    bold: paint(k.bold),
    dim: paint(k.dim),
    red: paint(k.red),
    redBold: paint(k.red.bold),
    yellow: paint(k.yellow),
    cyan: paint(k.cyan),
    green: paint(k.green),
    grey: paint(k.gray),
  };
}
