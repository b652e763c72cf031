/** Word wrapping that never loses text: words longer than the width are broken, not truncated. */

export function wrapText(text: string, width: number): string {
  const w = Math.max(4, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(' ')) {
      let rest = word;
      while (rest.length > w) {
        if (line) {
          out.push(line);
          line = '';
        }
        out.push(rest.slice(0, w));
        rest = rest.slice(w);
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= w) line += ` ${rest}`;
      else {
        out.push(line);
        line = rest;
      }
    }
    out.push(line);
  }
  return out.join('\n');
}
