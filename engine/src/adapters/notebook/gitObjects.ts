/**
 * A commit of the memory folder written straight into the repository as git's loose objects (blobs,
 * trees, the commit; zlib-deflated and named by their SHA-1) and the branch moved by a lock file
 * renamed over the ref, as git itself does. A notebook turn used to start a git process or two per
 * commit, a third of its CPU and most of its waiting (issue #17); git now runs only to create the
 * repository and to read history. A kill at any moment leaves the repository valid: objects are
 * written before anything names them, each by a rename to its new name, and the branch moves last.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/** The branch `git init --initial-branch=main` makes and HEAD names. */
const BRANCH_REF = 'refs/heads/main';
const IDENTITY = 'notebook <notebook@marathonmembench.invalid>';

interface TreeEntry {
  mode: string;
  name: string;
  id: string;
}

export class LooseRepository {
  constructor(private readonly gitDir: string, private readonly workTree: string) {}

  /**
   * The commit id, or undefined when the folder's tree is the branch's already (nothing to commit).
   * Undefined is also returned, with `unreadable` true, when the branch's commit is not a loose
   * object this file can read (a packed repository): the caller then commits with git itself.
   */
  commitFolder(message: string, at: Date): { id?: string; unreadable?: boolean } {
    const parent = this.branchHead();
    const parentTree = parent === undefined ? undefined : this.treeOf(parent);
    if (parent !== undefined && parentTree === undefined) return { unreadable: true };
    const tree = this.writeTree('');
    if (tree === parentTree) return {};
    const stamp = `${Math.floor(at.getTime() / 1000)} +0000`;
    const body = [`tree ${tree}`, ...(parent ? [`parent ${parent}`] : []), `author ${IDENTITY} ${stamp}`, `committer ${IDENTITY} ${stamp}`, '', `${cleanMessage(message)}\n`].join('\n');
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
    const line = readFileSync(packed, 'utf8').split('\n').find((l) => l.endsWith(` ${BRANCH_REF}`));
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

  /** The tree of a folder of the work tree (relative path, '' for its top), its blobs and subtrees written. */
  private writeTree(rel: string): string {
    const entries: TreeEntry[] = [];
    const dir = join(this.workTree, rel);
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) {
        const id = this.writeTree(rel ? `${rel}/${name}` : name);
        // git keeps no empty folders: a tree with nothing in it is left out, as `git add -A` does.
        if (id !== EMPTY_TREE) entries.push({ mode: '40000', name, id });
      } else if (stat.isFile()) {
        entries.push({ mode: stat.mode & 0o111 ? '100755' : '100644', name, id: this.writeObject('blob', readFileSync(path)) });
      }
    }
    // git's order: by name as bytes, a folder's name compared as if it ended in '/'.
    const key = (entry: TreeEntry) => Buffer.from(entry.mode === '40000' ? `${entry.name}/` : entry.name);
    entries.sort((a, b) => Buffer.compare(key(a), key(b)));
    return this.writeObject('tree', Buffer.concat(entries.map((e) => Buffer.concat([Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.id, 'hex')]))));
  }

  /** Writes an object unless it is there already (same content, same name); its id. */
  private writeObject(type: 'blob' | 'tree' | 'commit', content: Buffer): string {
    const whole = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    const id = createHash('sha1').update(whole).digest('hex');
    const dir = join(this.gitDir, 'objects', id.slice(0, 2));
    const path = join(dir, id.slice(2));
    if (existsSync(path)) return id;
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `tmp_obj_${process.pid}`);
    writeFileSync(tmp, deflateSync(whole));
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

/** The empty tree's id: git never stores it in a tree entry. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** The message as `git commit -m` keeps it: trailing spaces of each line, and blank lines around it, removed. */
function cleanMessage(message: string): string {
  return message.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').replace(/^\n+|\n+$/g, '');
}
