/** What a command may do to the outside world; main() supplies the process, tests supply buffers. */
export interface Io {
  stdout(s: string): void;
  stderr(s: string): void;
  setExitCode(code: number): void;
  isTTY: boolean;
  /** stderr is a terminal and CI is not set: progress may be drawn there. */
  progress?: boolean;
  columns: number;
}
