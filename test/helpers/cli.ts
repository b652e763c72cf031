/** Run the CLI in-process with captured output. */
import { main } from '../../src/cli/main.js';

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export async function cli(args: string[], opts: { columns?: number; isTTY?: boolean } = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  let code = 0;
  await main(args, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    setExitCode: (c) => {
      code = c;
    },
    isTTY: opts.isTTY ?? false,
    columns: opts.columns ?? 120,
  });
  return { stdout, stderr, code };
}
