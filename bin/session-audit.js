#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { main, processIo } from '../dist/src/cli/main.js';

await main(hideBin(process.argv), processIo());
