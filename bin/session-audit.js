#!/usr/bin/env node
// `--version` alone is answered before anything else loads: CI gates call it per run. If that write fails (a full
// disk), the full CLI answers instead, with its one-line error; a closed pipe is the reader's choice.
let done = false;
if (process.argv.length === 3 && process.argv[2] === '--version') {
  const { TOOL_VERSION } = await import('../dist/src/version.js');
  const { writeSync } = await import('node:fs');
  try {
    writeSync(1, `${TOOL_VERSION}\n`);
    done = true;
  } catch (e) {
    done = e.code === 'EPIPE';
  }
}
if (!done) {
  const { main, processIo } = await import('../dist/src/cli/main.js');
  await main(process.argv.slice(2), processIo());
}
