/** Terminal colours: SGR sequences around text when colour is on, the text itself when it is off. */

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

const sgr =
  (open: string, close: string): Paint =>
  (s) =>
    s === '' ? s : `\u001b[${open}m${s}\u001b[${close}m`;

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
  return {
    on,
    bold: sgr('1', '22'),
    dim: sgr('2', '22'),
    red: sgr('31', '39'),
    redBold: sgr('1;31', '39;22'),
    yellow: sgr('33', '39'),
    cyan: sgr('36', '39'),
    green: sgr('32', '39'),
    grey: sgr('90', '39'),
  };
}
