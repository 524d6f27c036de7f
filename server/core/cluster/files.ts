// The cluster yaml files as configured, read before the rules run (rules are synchronous): through
// files.ts (a regular file, strict UTF-8, at most MAX_FILE_BYTES.cluster; a binary or huge file is
// refused with the reason), inside the config's folder and the reader's roots when a .cqlint.json names
// it (a link out of the project is refused), anywhere when the user's own command line or editor setting
// does. A ClusterFileCache keeps each file's reading by path, size and modification time.
import { stat } from 'node:fs/promises';
import { readTextFile } from '../io/files';
import type { ClusterSetting } from '../vocabulary/config';
import { readClusterYaml, type ClusterFile } from './yaml';

export interface ClusterReadResult {
  /** The files read (their problems inside). */
  files: readonly ClusterFile[];
  /** Files that could not be read, and what could not be read inside the others. */
  problems: string[];
  /** Whether anything was read anew since the last call (the rules' findings may change). */
  fresh: boolean;
}

interface Entry {
  stamp: string;
  result?: ClusterFile;
  error?: string;
}

export class ClusterFileCache {
  private readonly entries = new Map<string, Entry>();
  /** The last reading of each file, whatever the roots (what the rules see). */
  private readonly latestByFile = new Map<string, Entry>();

  /** Reads the files the settings name (again only when changed). Never throws. */
  async read(
    settings: readonly ClusterSetting[],
    options: { roots?: readonly string[] } = {},
  ): Promise<ClusterReadResult> {
    const files: ClusterFile[] = [];
    const problems: string[] = [];
    let fresh = false;
    const seen = new Set<string>();
    for (const setting of settings) {
      const file = setting.config;
      if (file === undefined || seen.has(file)) continue;
      seen.add(file);
      const name = setting.name ?? file;
      let stamp: string;
      try {
        const s = await stat(file);
        stamp = `${s.size}:${s.mtimeMs}:${s.ino}`;
      } catch {
        stamp = 'missing';
      }
      const roots = setting.unconfined
        ? undefined
        : [...(setting.configFolder ? [setting.configFolder] : []), ...(options.roots ?? [])];
      // Where it may be read is part of the reading: a link refused to a .cqlint.json is read for the command line.
      const key = `${file}\0${roots?.join('\0') ?? '*'}`;
      let entry = this.entries.get(key);
      if (!entry || entry.stamp !== stamp) {
        fresh = true;
        const read = await readTextFile(file, { kind: 'cluster', roots });
        entry = read.ok
          ? { stamp, result: readClusterYaml(read.text, file, name) }
          : { stamp, error: `cluster config ${name}: cannot read the file: ${read.message}` };
        this.entries.set(key, entry);
        this.latestByFile.set(file, entry);
      }
      if (entry.error) problems.push(entry.error);
      if (entry.result) {
        files.push(entry.result);
        problems.push(...entry.result.problems.map((p) => `cluster config ${p}`));
      }
    }
    return { files, problems, fresh };
  }

  /** The latest reading of a file, if any (never reads). */
  latest(file: string): ClusterFile | undefined {
    return this.latestByFile.get(file)?.result;
  }

  /** Forgets every reading (an untrusted workspace). */
  clear(): void {
    this.entries.clear();
    this.latestByFile.clear();
  }
}
