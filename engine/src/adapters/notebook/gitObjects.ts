/**
 * A commit of the memory folder written straight into the repository as git's loose objects (blobs,
 * trees, the commit; zlib-deflated and named by their SHA-1) and the branch moved by a lock file
 * renamed over the ref, as git itself does. A notebook turn used to start a git process or two per
 * commit, a third of its CPU and most of its waiting (issue #17); git now runs only to create the
 * repository and to read history. A kill at any moment leaves the repository valid: objects are
 * written before anything names them, each by a rename to its new name, and the branch moves last.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/** The branch `git init --initial-branch=main` makes and HEAD names. */
const BRANCH_REF = 'refs/heads/main';
const IDENTITY = 'notebook <notebook@marathonmembench.invalid>';

interface TreeEntry {
  mode: string;
  name: string;
  id: string;
}

/** A file of the tree: its mode and blob id, by its path in the work tree (`/` separators). */
type Files = Map<string, { mode: string; id: string }>;

export class LooseRepository {
  /** The files of the last tree this repository wrote: a commit of a few changed paths re-reads only those. */
  private files: Files | undefined;
  /** Object folders (`objects/ab/`) known to exist, so each is made once. */
  private readonly objectDirs = new Set<string>();

  constructor(
    private readonly gitDir: string,
    private readonly workTree: string,
  ) {}

  /** Forgets what it knew of the tree and the object folders (a new repository, or one git changed). */
  forget(): void {
    this.files = undefined;
    this.objectDirs.clear();
  }

  /**
   * The commit id, or undefined when the folder's tree is the branch's already (nothing to commit).
   * Undefined is also returned, with `unreadable` true, when the branch's commit is not a loose
   * object this file can read (a packed repository): the caller then commits with git itself.
   * `changed`: the only paths that can differ from the tree this repository wrote last (the notes a
   * turn's tool calls wrote); without it, or before a first tree, the whole folder is read.
   */
  commitFolder(message: string, at: Date, changed?: Iterable<string>): { id?: string; unreadable?: boolean } {
    const parent = this.branchHead();
    const parentTree = parent === undefined ? undefined : this.treeOf(parent);
    if (parent !== undefined && parentTree === undefined) return { unreadable: true };
    let files: Files;
    let tree: string;
    try {
      files = (changed && this.files && this.updated(this.files, changed)) || this.scan('', new Map());
      tree = this.writeTrees(files);
    } catch (e) {
      // A commit cut short (a full disk) leaves changes the next turn's paths do not name.
      this.forget();
      throw e;
    }
    this.files = files;
    if (tree === parentTree) return {};
    const stamp = `${Math.floor(at.getTime() / 1000)} +0000`;
    const body = [
      `tree ${tree}`,
      ...(parent ? [`parent ${parent}`] : []),
      `author ${IDENTITY} ${stamp}`,
      `committer ${IDENTITY} ${stamp}`,
      '',
      `${cleanMessage(message)}\n`,
    ].join('\n');
    const id = this.writeObject('commit', Buffer.from(body));
    this.moveBranch(id);
    return { id };
  }

  /** The branch's commit, undefined before the first. */
  private branchHead(): string | undefined {
    const path = join(this.gitDir, BRANCH_REF);
    if (existsSync(path)) return readFileSync(path, 'utf8').trim() || undefined;
    const packed = join(this.gitDir, 'packed-refs');
    if (!existsSync(packed)) return undefined;
    const line = readFileSync(packed, 'utf8')
      .split('\n')
      .find((l) => l.endsWith(` ${BRANCH_REF}`));
    return line?.slice(0, 40);
  }

  private treeOf(commit: string): string | undefined {
    const object = this.readObject(commit);
    const match = object && /^tree ([0-9a-f]{40})\n/.exec(object.toString('latin1'));
    return match?.[1];
  }

  private readObject(id: string): Buffer | undefined {
    const path = join(this.gitDir, 'objects', id.slice(0, 2), id.slice(2));
    if (!existsSync(path)) return undefined;
    const raw = inflateSync(readFileSync(path));
    return raw.subarray(raw.indexOf(0) + 1);
  }

  /** Every file of a folder of the work tree (relative path, '' for its top) into `files`, each blob written. */
  private scan(rel: string, files: Files): Files {
    const dir = join(this.workTree, rel);
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = rel ? `${rel}/${name}` : name;
      const stat = lstatSync(join(dir, name));
      if (stat.isDirectory()) this.scan(path, files);
      else if (stat.isFile()) files.set(path, this.blob(path, stat.mode));
    }
    return files;
  }

  /**
   * The last tree's files with the changed paths read again (a deleted one dropped); undefined when
   * a path is not a plain note path of the work tree, and the whole folder must be read.
   */
  private updated(last: Files, changed: Iterable<string>): Files | undefined {
    const files: Files = new Map(last);
    for (const raw of changed) {
      const path = relative(this.workTree, resolve(this.workTree, raw)).split(sep).join('/');
      if (!path || path.startsWith('..') || isAbsolute(path)) return undefined;
      const stat = lstatSync(join(this.workTree, path), { throwIfNoEntry: false });
      if (stat?.isDirectory()) return undefined;
      if (stat?.isFile()) files.set(path, this.blob(path, stat.mode));
      else files.delete(path);
    }
    return files;
  }

  private blob(path: string, mode: number): { mode: string; id: string } {
    return { mode: mode & 0o111 ? '100755' : '100644', id: this.writeObject('blob', readFileSync(join(this.workTree, path))) };
  }

  /**
   * The trees of the files (git keeps no empty folders: a folder without files has no tree), each
   * written; the top tree's id.
   */
  private writeTrees(files: Files): string {
    const folders = new Map<string, TreeEntry[]>([['', []]]);
    const entriesOf = (dir: string): TreeEntry[] => {
      let entries = folders.get(dir);
      if (!entries) {
        entries = [];
        folders.set(dir, entries);
        const cut = dir.lastIndexOf('/');
        entriesOf(cut < 0 ? '' : dir.slice(0, cut)).push({ mode: '40000', name: dir.slice(cut + 1), id: '' });
      }
      return entries;
    };
    for (const [path, file] of files) {
      const cut = path.lastIndexOf('/');
      entriesOf(cut < 0 ? '' : path.slice(0, cut)).push({ mode: file.mode, name: path.slice(cut + 1), id: file.id });
    }
    const write = (dir: string): string => {
      const entries = folders.get(dir)!;
      for (const entry of entries) if (entry.mode === '40000') entry.id = write(dir ? `${dir}/${entry.name}` : entry.name);
      // git's order: by name as bytes, a folder's name compared as if it ended in '/'.
      const key = (entry: TreeEntry) => Buffer.from(entry.mode === '40000' ? `${entry.name}/` : entry.name);
      entries.sort((a, b) => Buffer.compare(key(a), key(b)));
      return this.writeObject(
        'tree',
        Buffer.concat(entries.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.id, 'hex')]))),
      );
    };
    return write('');
  }

  /** Writes an object unless it is there already (same content, same name); its id. */
  private writeObject(type: 'blob' | 'tree' | 'commit', content: Buffer): string {
    const whole = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const id = createHash('sha1').update(whole).digest('hex');
    const dir = join(this.gitDir, 'objects', id.slice(0, 2));
    const path = join(dir, id.slice(2));
    if (existsSync(path)) return id;
    if (!this.objectDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.objectDirs.add(dir);
    }
    const tmp = join(dir, `tmp_obj_${process.pid}`);
    // Level 1, as git's core.looseCompression allows: notes are small, and speed is what a turn waits on.
    try {
      writeFileSync(tmp, deflateSync(whole, { level: 1 }));
    } catch (e) {
      rmSync(tmp, { force: true });
      throw e;
    }
    renameSync(tmp, path);
    return id;
  }

  /**
   * The branch moved to `id`. A ref of one id is rewritten in place, one write of the same 41 bytes
   * (a kill cannot cut a write that small: it lands whole or not at all), because replacing a file
   * by a rename makes ext4 flush the new file first, a millisecond or more per commit. The first
   * ref, or one git wrote otherwise, goes through `main.lock` renamed over it, as git does.
   */
  private moveBranch(id: string): void {
    const path = join(this.gitDir, BRANCH_REF);
    const line = `${id}\n`;
    if (existsSync(path) && statSync(path).size === line.length) {
      const fd = openSync(path, 'r+');
      try {
        writeSync(fd, line, 0);
      } finally {
        closeSync(fd);
      }
      return;
    }
    mkdirSync(join(this.gitDir, 'refs', 'heads'), { recursive: true });
    const lock = `${path}.lock`;
    try {
      writeFileSync(lock, line, { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        // Made by this write and cut short (a full disk): removed, so the next commit can take the lock.
        rmSync(lock, { force: true });
        throw e;
      }
      throw new Error(`git commit failed: ${lock} exists: another git is writing this repository`, { cause: e });
    }
    try {
      renameSync(lock, path);
    } catch (e) {
      rmSync(lock, { force: true });
      throw e;
    }
  }
}

/** The message as `git commit -m` keeps it: trailing spaces of each line, and blank lines around it, removed. */
function cleanMessage(message: string): string {
  return message
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+|\n+$/g, '');
}
