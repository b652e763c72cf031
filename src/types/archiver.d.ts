/** archiver@8 ships no type declarations: the part of its API this project uses. */
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';
  interface EntryData {
    name: string;
    date?: Date;
    mode?: number;
  }
  class Archiver extends Transform {
    append(source: Buffer | Readable | string, data: EntryData): this;
    finalize(): Promise<void>;
  }
  export class ZipArchive extends Archiver {
    constructor(options?: { zlib?: { level?: number }; store?: boolean; comment?: string; forceLocalTime?: boolean });
  }
  export class TarArchive extends Archiver {
    constructor(options?: { gzip?: boolean; gzipOptions?: { level?: number } });
  }
}
