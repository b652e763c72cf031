// Runs the built CLI in this process and reports its peak resident set size (KiB) on stderr.
import { main } from '../../dist/src/cli/main.js';

let _out = 0;
await main(process.argv.slice(2), {
  stdout: (s) => {
    _out += s.length;
  },
  stderr: (s) => process.stderr.write(s),
  setExitCode: (c) => {
    process.exitCode = c;
  },
  isTTY: false,
  columns: 120,
});
process.stderr.write(`\nMAXRSS_KB ${process.resourceUsage().maxRSS}\n`);
