/**
 * Entry point: parse → load the one command asked for → run it (it renders, writes and sets the exit code).
 * Never calls process.exit(). A reader that closed standard output ends the run quietly with the exit code the
 * command set from its findings; a usage problem is one line and exit 2; anything else is a bug, exit 3.
 */
import { OutputClosed, reportError, UsageError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { parseArgs, wantsHelp } from './args.js';
import { COMMANDS } from './commands/index.js';
import { commandHelp, programHelp } from './help.js';
import type { Io } from './io.js';
import type { CommandSpec, HelpFacts } from './spec.js';

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
    io.stdout(programHelp(COMMANDS, TOOL_VERSION, io.columns));
    return;
  }
  if (first === 'help') {
    const topic = rest[0];
    io.stdout(
      topic === undefined
        ? programHelp(COMMANDS, TOOL_VERSION, io.columns)
        : commandHelp(commandNamed(topic), await helpFacts(), io.columns),
    );
    return;
  }
  if (first.startsWith('-')) throw new UsageError(`give a command before options: ${names()} (see --help)`);
  const spec = commandNamed(first);
  if (wantsHelp(rest)) {
    io.stdout(commandHelp(spec, await helpFacts(), io.columns));
    return;
  }
  const args = parseArgs(spec, rest);
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
