/** The shape of a secret detector and of what it finds (detectors.ts holds the table, passwords.ts two of them). */

export interface Detector {
  kind: string;
  /**
   * Calls `hit` for each match in `text`, in text order (valueStart: after a kept header or variable name). `cut`:
   * the text was cut at its end from a longer one (cut.ts), so a secret reaching the end may run on past it: it is
   * reported as far as it goes, even when what is left of it is too short to be recognised whole.
   */
  find(text: string, hit: (start: number, valueStart: number, end: number) => void, cut?: boolean): void;
}

export interface SecretMatch {
  kind: string;
  /** UTF-16 offsets into the scanned text: the whole match. */
  start: number;
  end: number;
  /** Where the secret value starts (after the kept name or header). */
  valueStart: number;
}
