/**
 * The edit history of the notebook's memory folder, in a git repository beside the folder
 * (`memory.git/`), so the folder itself holds only notes and its snapshots stay clean. The `git`
 * CLI creates it and reads history; commits are written as objects (`gitObjects.ts`). Commits
 * carry the agent's (virtual) time; no global or system git config is read or touched.
 */
import { execFile } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { devNull } from 'node:os';
import { dirname, join } from 'node:path';
import { isDiskFull, spaceProblem } from '../../diskFull';
import { DiskFull, GitMissingError } from '../../errors';
import { LooseRepository } from './gitObjects';

const IDENTITY = [
  '-c',
  'user.name=notebook',
  '-c',
  'user.email=notebook@marathonmembench.invalid',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'core.quotepath=off',
];

/** A git command ended by a signal, not by its own failure. */
class GitKilled extends Error {}

/** `git commit` found nothing staged: not a failure. */
class NothingToCommit extends Error {}

/** The lock files a killed git can leave in a repository like this one (one branch, no remotes). */
const STALE_LOCKS = ['index.lock', 'HEAD.lock', 'config.lock', 'packed-refs.lock', 'refs/heads/main.lock', 'ORIG_HEAD.lock'];

/** How git (run with LC_ALL=C) says the disk is full or read-only, and the system's code for it; often it says only that a write failed. */
const DISK_ERRORS = [
  { text: /No space left on device/i, code: 'ENOSPC' },
  { text: /Disk quota exceeded/i, code: 'EDQUOT' },
  { text: /Read-only file system/i, code: 'EROFS' },
];

function mtimeMs(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export class NotesHistory {
  private readonly loose: LooseRepository;

  constructor(
    private readonly gitDir: string,
    private readonly workTree: string,
  ) {
    this.loose = new LooseRepository(gitDir, workTree);
  }

  /**
   * Creates the repository once; fails with what to do when git is not installed. In a repository
   * already there, lock files left by a git that was killed (the engine's process group killed
   * mid-commit) are removed: the run's lock says no other engine uses this repository.
   */
  async init(): Promise<void> {
    this.loose.forget();
    if (existsSync(this.gitDir)) {
      await this.removeStaleLocks();
      return;
    }
    // Made aside and renamed into place: a `git init` cut short (a full disk) leaves no half repository behind.
    const fresh = `${this.gitDir}.init`;
    rmSync(fresh, { recursive: true, force: true });
    try {
      await this.git(['init', '-q', '--initial-branch=main'], undefined, fresh);
    } catch (e) {
      rmSync(fresh, { recursive: true, force: true });
      throw e instanceof DiskFull ? new DiskFull(this.gitDir, { cause: e, readOnly: e.readOnly }) : e;
    }
    renameSync(fresh, this.gitDir);
  }

  /**
   * Commits every change of the folder (as `git add -A && git commit` would), dated `at`; false
   * when nothing changed. `changed`: the only notes that can have changed since the last commit
   * made here (a turn's writes, from the journal), which are then the only ones read again. No git
   * process: the objects are written directly (`gitObjects.ts`), unless the branch's commit is
   * packed, which only a git run by hand makes; then git commits.
   */
  async commit(message: string, at: Date, changed?: Iterable<string>): Promise<boolean> {
    let made: ReturnType<LooseRepository['commitFolder']>;
    try {
      made = this.loose.commitFolder(message, at, changed);
    } catch (e) {
      throw isDiskFull(e) ? new DiskFull(this.gitDir, { cause: e }) : e;
    }
    if (!made.unreadable) return made.id !== undefined;
    this.loose.forget();
    await this.retried(['add', '-A']);
    try {
      await this.retried(['commit', '-q', '-m', message], at);
      return true;
    } catch (e) {
      if (e instanceof NothingToCommit) return false;
      throw e;
    }
  }

  /**
   * Runs a git command that writes, once more if a signal killed it (Ctrl-C reaches the whole
   * process group; the engine then stops after this step, which must still complete). Its calls
   * are one at a time, so a lock left by the killed one is stale.
   */
  private async retried(args: string[], at?: Date): Promise<string> {
    try {
      return await this.git(args, at);
    } catch (e) {
      if (!(e instanceof GitKilled)) throw e;
      await this.removeStaleLocks(0);
      return this.git(args, at);
    }
  }

  /**
   * Removes the lock files git leaves when it is killed. A lock younger than `graceMs` may belong
   * to a git of the killed engine still finishing (a SIGKILL to the engine alone): it gets that
   * long to go away first.
   */
  private async removeStaleLocks(graceMs = 2000): Promise<void> {
    const locks = STALE_LOCKS.map((name) => join(this.gitDir, name)).filter((path) => existsSync(path));
    for (const path of locks) {
      const deadline = Date.now() + graceMs;
      while (existsSync(path) && Date.now() < deadline && Date.now() - mtimeMs(path) < graceMs)
        await new Promise((resolve) => setTimeout(resolve, 20));
      rmSync(path, { force: true });
    }
  }

  /** The message of the last commit, '' before the first. */
  async lastMessage(): Promise<string> {
    if (!(await this.git(['rev-list', '-n', '1', '--all']).catch(() => '')).trim()) return '';
    return (await this.git(['log', '-1', '--format=%s'])).trim();
  }

  /** `git log -p` of one file, newest first, with each commit's date. */
  async log(path: string): Promise<string> {
    if (!(await this.git(['rev-list', '-n', '1', '--all']).catch(() => '')).trim()) return '';
    return this.git(['log', '-p', '--follow', '--date=format:%Y-%m-%d %H:%M', '--format=commit %h, %ad: %s', '--', path]);
  }

  private git(args: string[], at?: Date, gitDir = this.gitDir): Promise<string> {
    const date = at ? `${at.toISOString().slice(0, 19)}Z` : undefined;
    // Only what git needs: no API key of the parent's environment reaches the child.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '',
      LC_ALL: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: devNull,
      GIT_TERMINAL_PROMPT: '0',
      ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
    };
    return new Promise((resolve, reject) => {
      execFile(
        'git',
        ['--git-dir', gitDir, '--work-tree', this.workTree, ...IDENTITY, ...args],
        { env, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
            reject(
              new GitMissingError(
                "the notebook agent keeps its notes' edit history with git, which is not installed or not on PATH: " +
                  'install git (e.g. `apt-get install git`) and run again.',
              ),
            );
          } else if (error) {
            const killed = (error as { signal?: NodeJS.Signals | null }).signal;
            const message = `git ${args[0]} failed: ${(stderr || error.message).trim()}`;
            const disk =
              DISK_ERRORS.find((known) => known.text.test(stderr))?.code ?? (killed ? undefined : spaceProblem(dirname(gitDir))?.code);
            if (disk)
              reject(new DiskFull(gitDir, { cause: Object.assign(new Error(message), { code: disk }), readOnly: disk === 'EROFS' }));
            else if (!killed && args[0] === 'commit' && /^nothing (added )?to commit/m.test(stdout)) reject(new NothingToCommit(message));
            else reject(killed ? new GitKilled(message) : new Error(message));
          } else {
            resolve(stdout);
          }
        },
      );
    });
  }
}
