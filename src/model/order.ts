/** The one order of names and paths: by their UTF-8 bytes, as the file system stores them (deterministic output). */
export const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
