/**
 * What the language server reads of the disk, behind a narrow interface: production hands it the
 * Node file system (nodeFileSystem.ts), tests an in-memory one, so the whole server runs in-process
 * without touching the disk.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MANIFEST_FILE } from '../../scenario/src';

export interface BenchmarkFileSystem {
  /** The names in a folder (files and folders), or undefined when it cannot be listed. */
  list(dir: string): string[] | undefined;
  /**
   * A file's text, or undefined when it is missing, unreadable right now, or refused by the rule
   * of benchmark files (a link out of its folder, not a regular file, over the size cap).
   */
  readText(path: string): string | undefined;
  isFile(path: string): boolean;
  /**
   * A benchmark folder's files by name: `benchmark.json` and the markdown files, with the editor's
   * text (`openText`, by URI) in place of the files it has open, and the files refused with why.
   */
  readBenchmarkFiles(dir: string, openText: (uri: string) => string | undefined): ServedFiles;
  /**
   * One file of a benchmark folder by the same rule: its text, why it is refused, or undefined
   * when it does not exist. A file-watch event reads only the file it names.
   */
  readBenchmarkFile(dir: string, name: string): { text: string } | { refused: string } | undefined;
  /**
   * The one line that refuses a config.jsonc on disk before its keys (not UTF-8, two byte order
   * marks), as `mmb check` and `mmb run` print it; undefined when it has none or is not on disk.
   * The editor's text cannot tell: it is decoded by the editor's guess and has lost its BOM.
   */
  configFileProblem?(path: string): string | undefined;
}

/** A folder's files as the server reads them: the texts, and the names refused with the reason. */
export interface ServedFiles {
  files: Map<string, string>;
  refused?: Map<string, string>;
}

/** Files held in memory by absolute path; folders exist as far as some file lies under them. */
export class MemoryFileSystem implements BenchmarkFileSystem {
  private readonly files: Map<string, string>;

  /** How many times a file's text was read: a keystroke must read none. */
  reads = 0;

  constructor(files: Record<string, string> = {}) {
    this.files = new Map(Object.entries(files));
  }

  /** Writes a file, as another program would behind the editor's back. */
  write(path: string, text: string): void {
    this.files.set(path, text);
  }

  remove(path: string): void {
    this.files.delete(path);
  }

  list(dir: string): string[] | undefined {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    const names = [...this.files.keys()]
      .filter((path) => path.startsWith(prefix))
      .map((path) => path.slice(prefix.length).split('/')[0] ?? '');
    return names.length ? [...new Set(names)].sort() : undefined;
  }

  readText(path: string): string | undefined {
    if (this.files.has(path)) this.reads++;
    return this.files.get(path);
  }

  isFile(path: string): boolean {
    return this.files.has(path);
  }

  readBenchmarkFiles(dir: string, openText: (uri: string) => string | undefined): ServedFiles {
    const files = new Map<string, string>();
    for (const name of (this.list(dir) ?? []).filter((n) => n === MANIFEST_FILE || /\.md$/i.test(n))) {
      const path = join(dir, name);
      const text = openText(pathToFileURL(path).toString()) ?? this.readText(path);
      if (text !== undefined) files.set(name, text);
    }
    return { files };
  }

  readBenchmarkFile(dir: string, name: string): { text: string } | undefined {
    const text = this.readText(join(dir, name));
    return text === undefined ? undefined : { text };
  }
}
