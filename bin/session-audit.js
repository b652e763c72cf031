#!/usr/bin/env node
import { main, processIo } from '../dist/src/cli/main.js';

await main(process.argv.slice(2), processIo());
