/**
 * The notebook's memory folder: markdown notes, every path confined to the folder. Also the two
 * pure rules the seeds ask for: the injected layer stays small (the first 200 lines or 25 KB of
 * `MEMORY.md`), and one fact stored in two places with different values is caught.
 */
import { createHash } from 'node:crypto';
import { isDiskFull } from '../../diskFull';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { DiskFull, NoteError } from '../../errors';

export const INDEX_MAX_LINES = 200;
export const INDEX_MAX_BYTES = 25 * 1024;
/** What read_note returns at most; beyond it the model reads on with `from_line`. */
const READ_MAX_CHARS = 24_000;

export class Notes {
  constructor(readonly dir: string) {}

  /** Every note, relative to the folder with `/` separators, sorted. */
  list(): string[] {
    if (!existsSync(this.dir)) return [];
    const out: string[] = [];
    const walk = (rel: string) => {
      for (const name of readdirSync(join(this.dir, rel)).sort()) {
        const path = rel ? `${rel}/${name}` : name;
        const stat = lstatSync(join(this.dir, path));
        if (stat.isDirectory()) walk(path);
        else if (stat.isFile() && name.endsWith('.md')) out.push(path);
      }
    };
    walk('');
    return out;
  }

  exists(path: string): boolean {
    return existsSync(this.resolve(path));
  }

  read(path: string, fromLine = 1): string {
    const text = this.text(path);
    const lines = text.split('\n');
    if (!Number.isInteger(fromLine) || fromLine < 1) throw new NoteError('from_line must be a whole number from 1.');
    const shown = lines.slice(fromLine - 1).join('\n');
    if (shown.length <= READ_MAX_CHARS) return fromLine > 1 ? `(from line ${fromLine} of ${lines.length})\n${shown}` : shown;
    const cut = shown.slice(0, READ_MAX_CHARS).replace(/\n[^\n]*$/, '');
    const upTo = fromLine - 1 + cut.split('\n').length;
    return `${cut}\n[${path} has ${lines.length} lines; shown up to line ${upTo}. Read on with from_line ${upTo + 1}.]`;
  }

  /** The whole text of a note; a clear error when it does not exist. */
  text(path: string): string {
    const full = this.resolve(path);
    if (!existsSync(full) || !statSync(full).isFile())
      throw new NoteError(`there is no note ${path}; the notes are: ${this.list().join(', ') || 'none yet'}.`);
    return readFileSync(full, 'utf8');
  }

  /** The whole text `path` would have after writing `content` (or appending it). */
  planWrite(path: string, content: string, append = false): string {
    const full = this.resolve(path);
    const before = append && existsSync(full) ? readFileSync(full, 'utf8') : '';
    const glue = before && !before.endsWith('\n') ? '\n' : '';
    return `${before}${glue}${content.endsWith('\n') || !content ? content : `${content}\n`}`;
  }

  /** The whole text of `path` with one exact occurrence of `oldText` replaced (or every one, with `all`), and how many were. */
  planEdit(path: string, oldText: string, newText: string, all = false): { text: string; count: number } {
    if (!oldText) throw new NoteError('old_text is empty: give the exact text to replace (read_note shows it).');
    const text = this.text(path);
    const count = text.split(oldText).length - 1;
    if (count === 0)
      throw new NoteError(
        `old_text was not found in ${path}: it must match the note exactly, spaces and line breaks included. Read the ` +
          `note with read_note and copy the text.`,
      );
    if (count > 1 && !all)
      throw new NoteError(
        `old_text occurs ${count} times in ${path}: include more of the surrounding text so it is unique, or set replace_all to true.`,
      );
    return { text: all ? text.split(oldText).join(newText) : text.replace(oldText, () => newText), count: all ? count : 1 };
  }

  /**
   * Sets a note to `text`, or deletes it (null). A kill at any moment leaves the note whole, as it
   * was or as it is now: the text goes whole to a file beside the folder first, then the note is
   * removed and the file renamed to its name. Renamed over the note instead, ext4 would write the
   * data out at once (`auto_da_alloc`): 0.2 ms a write against 0.03. Killed between the two steps,
   * the note is missing and the file whole: `finishPartial` renames it when the engine starts again.
   */
  put(path: string, text: string | null): void {
    const full = this.resolve(path);
    if (text === null) {
      rmSync(full, { force: true });
      return;
    }
    mkdirSync(dirname(full), { recursive: true });
    this.confine(dirname(full), path);
    try {
      writeFileSync(this.partialFile(), text);
    } catch (e) {
      throw isDiskFull(e) ? new DiskFull(full, { cause: e, bytes: Buffer.byteLength(text) }) : e;
    }
    rmSync(full, { force: true });
    renameSync(this.partialFile(), full);
  }

  /**
   * At a start: the write a kill interrupted is finished when the file beside the folder holds the
   * whole text of the last journaled change (the note may already be gone), and dropped otherwise
   * (cut, or of a change that was made): the note is then as it was, and the call is made again.
   */
  finishPartial(last: { path: string; after: string | null } | undefined): void {
    const partial = this.partialFile();
    if (!existsSync(partial)) return;
    try {
      if (last?.after && contentHash(readFileSync(partial, 'utf8')) === last.after) {
        const full = this.resolve(last.path);
        mkdirSync(dirname(full), { recursive: true });
        this.confine(dirname(full), last.path);
        renameSync(partial, full);
        return;
      }
    } catch {
      // A path that no longer resolves inside the folder: the write is dropped, and the call made again.
    }
    rmSync(partial, { force: true });
  }

  /** The SHA-256 of a note's text, null when it does not exist: what a journaled change is checked against. */
  hash(path: string): string | null {
    const full = this.resolve(path);
    return existsSync(full) && statSync(full).isFile() ? contentHash(readFileSync(full, 'utf8')) : null;
  }

  /** Where `put` writes before renaming: beside the folder, so no snapshot or commit picks it up. */
  partialFile(): string {
    return join(dirname(this.dir), `.${basename(this.dir)}.partial`);
  }

  write(path: string, content: string, append = false): void {
    this.put(path, this.planWrite(path, content, append));
  }

  /** Replaces one exact occurrence of `oldText` (or every one, with `all`). */
  edit(path: string, oldText: string, newText: string, all = false): number {
    const planned = this.planEdit(path, oldText, newText, all);
    this.put(path, planned.text);
    return planned.count;
  }

  remove(path: string): void {
    this.text(path);
    this.put(path, null);
  }

  /**
   * The absolute path of a note, refusing anything that would leave the folder: absolute paths,
   * `..`, files other than markdown, and symlinks that point outside.
   */
  resolve(path: string): string {
    if (typeof path !== 'string' || !path.trim())
      throw new NoteError('path is empty: give a note\'s path inside the memory folder, such as "MEMORY.md" or "topics/move.md".');
    const p = path.trim().replace(/\\/g, '/');
    if (isAbsolute(p) || /^[A-Za-z]:/.test(p) || p.startsWith('/'))
      throw new NoteError(`${path} is an absolute path: give a path relative to the memory folder, such as "topics/move.md".`);
    if (p.split('/').some((s) => s === '..')) throw new NoteError(`${path} leaves the memory folder (".."): notes live only inside it.`);
    if (!p.endsWith('.md')) throw new NoteError(`${path} is not a markdown note: note paths end in ".md".`);
    const full = join(this.dir, p);
    this.confine(existsSync(full) ? full : nearestExisting(full), path);
    return full;
  }

  private confine(existing: string, shown: string): void {
    if (!existsSync(existing) || !existsSync(this.dir)) return;
    // realpath(3) in one call: the JS realpath walks the path with an lstat per part.
    const root = realpathSync.native(this.dir);
    const real = realpathSync.native(existing);
    const rel = relative(root, real);
    if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..'))
      throw new NoteError(`${shown} leads outside the memory folder (through a symbolic link): notes live only inside it.`);
  }
}

/** The SHA-256 of a note's text (hex), null for a note that does not exist. */
export function contentHash(text: string | null): string | null {
  return text === null ? null : createHash('sha256').update(text).digest('hex');
}

function nearestExisting(path: string): string {
  let p = dirname(path);
  while (!existsSync(p) && dirname(p) !== p) p = dirname(p);
  return p;
}

/**
 * The part of the index file injected into the context: all of it when it is within 200 lines and
 * 25 KB, else its head with a note that says how much was left out and where to read it.
 */
export function injectedIndex(text: string, name: string): string {
  const lines = text.split('\n');
  if (lines.length <= INDEX_MAX_LINES && Buffer.byteLength(text) <= INDEX_MAX_BYTES) return text;
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines.slice(0, INDEX_MAX_LINES)) {
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > INDEX_MAX_BYTES) break;
    kept.push(line);
    bytes += size;
  }
  const kb = (Buffer.byteLength(text) / 1024).toFixed(1);
  return (
    `${kept.join('\n')}\n\n[${name} is ${lines.length} lines, ${kb} KB: only its first ${kept.length} lines are ` +
    `shown here (the cap is ${INDEX_MAX_LINES} lines or ${INDEX_MAX_BYTES / 1024} KB). Read the rest on demand with ` +
    `read_note("${name}", from_line ${kept.length + 1}), and move detail out of ${name} into topic notes.]`
  );
}

/** A fact line: `- key: value` (or `* key: value`), the notebook's convention for one current value. */
const FACT = /^\s*[-*]\s+(?:\*\*)?([^:\n]{1,60}?)(?:\*\*)?:\s+(\S.*)$/;

export interface FactPlace {
  path: string;
  line: number;
  value: string;
}

export interface Conflict {
  key: string;
  places: FactPlace[];
}

function norm(text: string): string {
  return text
    .toLowerCase()
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[.;,]\s*$/, '')
    .trim();
}

/** Fact keys that appear in more than one place with different values, across every note. */
export function findConflicts(notes: { path: string; text: string }[]): Conflict[] {
  const byKey = new Map<string, FactPlace[]>();
  for (const { path, text } of notes) {
    text.split('\n').forEach((line, i) => {
      const m = FACT.exec(line);
      if (!m) return;
      const key = norm(m[1] ?? '');
      if (!key) return;
      const places = byKey.get(key) ?? [];
      places.push({ path, line: i + 1, value: (m[2] ?? '').trim() });
      byKey.set(key, places);
    });
  }
  return [...byKey].filter(([, places]) => new Set(places.map((p) => norm(p.value))).size > 1).map(([key, places]) => ({ key, places }));
}

/** The conflicts as the model reads them, with what to do. */
export function describeConflicts(conflicts: Conflict[]): string {
  if (conflicts.length === 0) return '';
  const lines = conflicts.map((c) => `- "${c.key}": ${c.places.map((p) => `${p.path}:${p.line} says "${p.value}"`).join('; ')}`);
  const which = conflicts.length === 1 ? 'a fact is' : `${conflicts.length} facts are`;
  const remedy =
    'Keep one current value per fact: edit or delete the stale line (a past value belongs in a "was …" remark, not in a second fact line).';
  return `Warning: ${which} stored in two places with different values. ${remedy}\n${lines.join('\n')}`;
}
