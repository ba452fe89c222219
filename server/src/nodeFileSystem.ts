/**
 * The language server's file system in production: the disk, read by the one rule for benchmark
 * files (`scenario/node/safeRead.ts`, the same as `mmb check` and runs): nothing outside a folder,
 * no FIFOs, nothing over the size cap.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { configFileProblem } from '../../scenario/src';
import { isBenchmarkFileName, readBenchmarkFiles, readFolderBytes, readFolderFile, type FolderFile } from '../../scenario/node/safeRead';
import type { BenchmarkFileSystem, ServedFiles } from './fileSystem';

export class NodeFileSystem implements BenchmarkFileSystem {
  list(dir: string): string[] | undefined {
    try {
      return readdirSync(dir);
    } catch {
      return undefined;
    }
  }

  readText(path: string): string | undefined {
    try {
      const file = readFolderFile(realpathSync(dirname(path)), basename(path));
      return 'text' in file ? file.text : undefined;
    } catch {
      return undefined;
    }
  }

  configFileProblem(path: string): string | undefined {
    try {
      const read = readFolderBytes(realpathSync(dirname(path)), basename(path));
      return 'bytes' in read ? configFileProblem(read.bytes, basename(path)) : undefined;
    } catch {
      return undefined;
    }
  }

  isFile(path: string): boolean {
    try {
      return statSync(path).isFile();
    } catch {
      return false;
    }
  }

  /**
   * A refused file stays refused even when it is open in the editor: the editor shows a link's
   * target, which is exactly what must not be read. A folder that cannot be listed right now
   * reads as empty; the next change reads it again.
   */
  readBenchmarkFiles(dir: string, openText: (uri: string) => string | undefined): ServedFiles {
    try {
      return readBenchmarkFiles(dir, isBenchmarkFileName, (path) => openText(pathToFileURL(path).toString()));
    } catch {
      return { files: new Map() };
    }
  }

  /** A file gone (or its folder gone) is undefined; a file that is there but unreadable is refused, with why. */
  readBenchmarkFile(dir: string, name: string): FolderFile | undefined {
    try {
      lstatSync(join(dir, name));
    } catch {
      return undefined;
    }
    try {
      return readFolderFile(realpathSync(dir), name);
    } catch {
      return undefined;
    }
  }
}
