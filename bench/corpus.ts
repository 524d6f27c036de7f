// The benches' CQL text: the corpus's cassandra-docs and killrvideo files concatenated and repeated to a
// target size (grammar and analysis benches measure the same text).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const corpusDir = resolve(__dirname, '..', 'test', 'fixtures', 'corpus');

function cqlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...cqlFiles(path));
    else if (name.endsWith('.cql')) out.push(path);
  }
  return out;
}

/** The corpus files the benches read, in a fixed order. */
export function corpusFiles(): string[] {
  return ['cassandra-docs', 'killrvideo'].flatMap((f) => cqlFiles(join(corpusDir, f)));
}

export interface CorpusText {
  files: string[];
  /** The files once, joined. */
  one: string;
  /** `one` repeated `copies` times: at least the target size. */
  text: string;
  copies: number;
  /** Size of `text` in MB (2^20 bytes, UTF-8). */
  mb: number;
}

/** The corpus repeated to at least `targetBytes` (each file ends with a newline; `;`-less trailing text stays its own statement). */
export function corpusText(targetBytes = 6 * 1024 * 1024): CorpusText {
  const files = corpusFiles();
  const one = files.map((f) => readFileSync(f, 'utf8').trimEnd() + '\n').join('\n');
  const copies = Math.ceil(targetBytes / Buffer.byteLength(one));
  const text = Array.from({ length: copies }, () => one).join('\n');
  return { files, one, text, copies, mb: Buffer.byteLength(text) / (1024 * 1024) };
}
