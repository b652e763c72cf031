/**
 * Entry point: parse → load the one command asked for → run it (it renders, writes and sets the exit code).
 * Never calls process.exit(). A reader that closed standard output ends the run quietly with the exit code the
 * command set from its findings; a usage problem is one line and exit 2; anything else is a bug, exit 3.
 */
import { OutputClosed, reportError, UsageError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { parseArgs, wantsHelp } from './args.js';
import { COMMANDS } from './commands/index.js';
import type { Io } from './io.js';
import type { CommandSpec, HelpFacts } from './spec.js';

/** Help is rendered by a module of its own, loaded only to show it. */
async function help(spec?: CommandSpec, columns = 80): Promise<string> {
  const { commandHelp, programHelp } = await import('./help.js');
  return spec ? commandHelp(spec, await helpFacts(), columns) : programHelp(COMMANDS, TOOL_VERSION, columns);
}

async function helpFacts(): Promise<HelpFacts> {
  const { FORMAT_NAMES, sessionNouns } = await import('../formats/registry.js');
  return { formatNames: FORMAT_NAMES, sessionNouns: sessionNouns() };
}

const names = (): string => COMMANDS.map((c) => c.name).join(', ');

function commandNamed(name: string): CommandSpec {
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) throw new UsageError(`unknown command ${JSON.stringify(name)}: give one of ${names()} (see --help)`);
  return spec;
}

async function run(argv: readonly string[], io: Io): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError(`give a command: ${names()} (see session-audit --help)`);
  if (first === '--version') {
    io.stdout(`${TOOL_VERSION}\n`);
    return;
  }
  if (first === '--help' || first === '-h') {
    io.stdout(await help(undefined, io.columns));
    return;
  }
  if (first === 'help') {
    const topic = rest[0];
    io.stdout(await help(topic === undefined ? undefined : commandNamed(topic), io.columns));
    return;
  }
  if (first.startsWith('-')) throw new UsageError(`give a command before options: ${names()} (see --help)`);
  const spec = commandNamed(first);
  if (wantsHelp(rest)) {
    io.stdout(await help(spec, io.columns));
    return;
  }
  const args = await parseArgs(spec, rest);
  for (const d of args.deprecated)
    io.stderr(`session-audit: ${d.used} is deprecated for ${spec.name}: use ${d.use} (same meaning)\n`);
  const command = await spec.load();
  await command.run(args, io);
}

export async function main(argv: readonly string[], io: Io): Promise<void> {
  try {
    await run(argv, io);
  } catch (e) {
    // The command set its exit code before writing; a reader that went away changes nothing.
    if (e instanceof OutputClosed) return;
    io.setExitCode(reportError(e, io.stderr));
  }
}

export { processIo } from './io.js';
export { EXIT } from '../errors.js';
