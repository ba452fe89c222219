/**
 * The edit history of the notebook's memory folder, kept by the `git` CLI in a repository beside
 * the folder (`memory.git/`), so the folder itself holds only notes and its snapshots stay clean.
 * Commits carry the agent's (virtual) time; no global or system git config is read or touched.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { devNull } from 'node:os';

const IDENTITY = ['-c', 'user.name=notebook', '-c', 'user.email=notebook@marathonmembench.invalid', '-c', 'commit.gpgsign=false', '-c', 'core.quotepath=off'];

export class GitMissingError extends Error {}

export class NotesHistory {
  constructor(private readonly gitDir: string, private readonly workTree: string) {}

  /** Creates the repository once; fails with what to do when git is not installed. */
  async init(): Promise<void> {
    if (existsSync(this.gitDir)) return;
    await this.git(['init', '-q', '--initial-branch=main']);
  }

  /** Commits every change of the folder, dated `at`; false when nothing changed. */
  async commit(message: string, at: Date): Promise<boolean> {
    await this.git(['add', '-A']);
    const status = await this.git(['status', '--porcelain']);
    if (!status.trim()) return false;
    await this.git(['commit', '-q', '-m', message], at);
    return true;
  }

  /** `git log -p` of one file, newest first, with each commit's date. */
  async log(path: string): Promise<string> {
    if (!(await this.git(['rev-list', '-n', '1', '--all']).catch(() => '')).trim()) return '';
    return this.git(['log', '-p', '--follow', '--date=format:%Y-%m-%d %H:%M', '--format=commit %h, %ad: %s', '--', path]);
  }

  private git(args: string[], at?: Date): Promise<string> {
    const date = at ? `${at.toISOString().slice(0, 19)}Z` : undefined;
    // Only what git needs: no API key of the parent's environment reaches the child.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, GIT_TERMINAL_PROMPT: '0',
      ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
    };
    return new Promise((resolve, reject) => {
      execFile('git', ['--git-dir', this.gitDir, '--work-tree', this.workTree, ...IDENTITY, ...args], { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') {
          reject(new GitMissingError('the notebook agent keeps its notes\' edit history with git, which is not installed or not on PATH: install git (e.g. `apt-get install git`) and run again.'));
        } else if (error) {
          reject(new Error(`git ${args[0]} failed: ${(stderr || error.message).trim()}`));
        } else {
          resolve(stdout);
        }
      });
    });
  }
}
