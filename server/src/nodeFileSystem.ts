/** The language server's file system in production: the disk, through `node:fs`. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MANIFEST_FILE } from '../../scenario/src';
import type { BenchmarkFileSystem } from './fileSystem';

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
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }

  isFile(path: string): boolean {
    return isFile(path);
  }

  readBenchmarkFiles(dir: string, openText: (uri: string) => string | undefined): Map<string, string> {
    const files = new Map<string, string>();
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return files;
    }
    for (const name of names.filter((n) => n === MANIFEST_FILE || /\.md$/i.test(n))) {
      const path = join(dir, name);
      const open = openText(pathToFileURL(path).toString());
      if (open !== undefined) files.set(name, open);
      else if (isFile(path)) {
        try {
          files.set(name, readFileSync(path, 'utf8'));
        } catch {
          // Unreadable right now (being written, permissions): the next change reads it again.
        }
      }
    }
    return files;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
