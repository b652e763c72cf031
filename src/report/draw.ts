/**
 * The one place a terminal table is drawn: cli-table3 draws the cells layout.ts fitted (their widths, their lines,
 * their colours), without borders: columns two spaces apart, one line of the table a row of cli-table3 (its cells
 * single lines, so a tall row costs what its lines cost), the rule under the header a row of `─`. cli-table3 is
 * loaded the first time a table is drawn, so a command that draws none (`--version`, `--help`) never pays for it.
 *
 * The fitting stays layout.ts's: cli-table3 is handed no cell wider than its column, so it never wraps nor cuts.
 * Its own measure of width (string-width 4) counts some characters otherwise than width.ts (combining marks past
 * U+036F, variation selectors, several emoji and CJK ranges), and would pad or cut them wrongly: a line that is not
 * printable ASCII goes to it as a stand-in of private-use characters as wide as width.ts says, put back after it has
 * drawn. ANSI colours are counted as nothing by both.
 */
import { createRequire } from 'node:module';
import type CliTable3 from 'cli-table3';
import type { Paint } from './ansi.js';
import { displayWidth } from './width.js';

type TableClass = typeof CliTable3;
let Table: TableClass | undefined;
/** cli-table3, loaded on first use (a CommonJS package: a synchronous require, no renderer turns async). */
const loadTable = (): TableClass => (Table ??= createRequire(import.meta.url)('cli-table3') as TableClass);

/** One cell of one line of a table: text no wider than its column (width.ts's measure), and its colour. */
export interface DrawCell {
  text: string;
  paint?: Paint | undefined;
}

/** One line of a table: its cells, or one lone token set on a line of its own `indent` columns in. */
export type DrawLine = { cells: readonly DrawCell[] } | { alone: string; indent: number; paint?: Paint | undefined };

export interface DrawColumns {
  widths: readonly number[];
  right: readonly boolean[];
}

/** Columns are this many spaces apart: the border cli-table3 draws between two cells. */
export const GAP = 2;

const NONE = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** cli-table3 lays a table out in time quadratic in its rows: a long table is drawn this many lines at a time. */
const CHUNK = 48;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** The stand-in of a line: its first column, then the others (a line of width 0 takes one column). */
const STAND_START = '\ue000';
const STAND_MORE = '\ue001';
const STAND = /\ue000\ue001*/g;

/** Draws lines of fitted cells; `\n` after each line, trailing spaces trimmed. */
export function drawLines(columns: DrawColumns, lines: readonly DrawLine[]): string {
  let out = '';
  let run: { cells: readonly DrawCell[] }[] = [];
  const flush = (): void => {
    if (run.length) out += drawChunk(columns, run);
    run = [];
  };
  for (const line of lines) {
    if ('alone' in line) {
      flush();
      out += drawAlone(line);
      continue;
    }
    run.push(line);
    if (run.length >= CHUNK) flush();
  }
  flush();
  return out;
}

function drawChunk(columns: DrawColumns, lines: readonly { cells: readonly DrawCell[] }[]): string {
  const T = loadTable();
  const originals: string[] = [];
  const table = new T({
    chars: NONE,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    colWidths: [...columns.widths],
    colAligns: columns.right.map((r) => (r ? 'right' : 'left')),
  });
  for (const line of lines)
    table.push(
      columns.widths.map((_, k) => {
        const cell = line.cells[k];
        const content = cell ? stand(cell.text, originals) : '';
        return cell?.paint && content ? cell.paint(content) : content;
      }),
    );
  return finish(table.toString(), originals);
}

function drawAlone(line: { alone: string; indent: number; paint?: Paint | undefined }): string {
  const T = loadTable();
  const originals: string[] = [];
  const content = stand(line.alone, originals);
  const table = new T({
    chars: NONE,
    style: { head: [], border: [], 'padding-left': line.indent, 'padding-right': 0, compact: true },
    colWidths: [line.indent + Math.max(1, displayWidth(line.alone))],
  });
  table.push([line.paint ? line.paint(content) : content]);
  return finish(table.toString(), originals);
}

/** The text itself when cli-table3 measures it as width.ts does (printable ASCII), else its stand-in. */
function stand(text: string, originals: string[]): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  originals.push(text);
  return STAND_START + STAND_MORE.repeat(Math.max(0, displayWidth(text) - 1));
}

function finish(drawn: string, originals: readonly string[]): string {
  let i = 0;
  const text = originals.length ? drawn.replace(STAND, () => originals[i++] ?? '') : drawn;
  let out = '';
  for (const line of text.split('\n')) out += `${line.trimEnd()}\n`;
  return out;
}
