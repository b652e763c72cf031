/** Runs the CLI in this process with stdout discarded (counted), then reports peak RSS on stderr. */
import { main } from '../../src/cli/main.js';

let out = 0;
await main(process.argv.slice(2), {
  stdout: (s) => {
    out += s.length;
  },
  stderr: (s) => process.stderr.write(s),
  setExitCode: (c) => {
    process.exitCode = c === 1 ? 0 : c;
  },
  isTTY: false,
  columns: 120,
});
process.stderr.write(`\nOUTPUT_CHARS ${out}\nMAXRSS_KB ${process.resourceUsage().maxRSS}\n`);
