/** cli-table3's own measure of a cell's width (string-width, colour codes stripped): not in its published types. */
declare module 'cli-table3/src/utils.js' {
  const utils: { strlen(s: string): number };
  export default utils;
}
