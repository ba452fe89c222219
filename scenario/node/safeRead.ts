/**
 * Reading the files of a folder that may come from anyone (a cloned benchmark, a shared
 * workspace): nothing outside the folder is ever read. A link is judged by `lstat` and
 * `realpath` before anything follows it, only regular files are opened (a FIFO would block the
 * reader forever), and a file over the size cap is refused rather than parsed.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync, type Stats } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { MANIFEST_FILE } from '../src';

/**
 * The largest file read: 1 MiB. The biggest file of the bundled benchmarks (Max's last chapter)
 * is 3.4 KB, so this is some 300 times that, and parsing a file this size stays well under a
 * second; anything bigger is not a benchmark file someone wrote.
 */
export const MAX_FILE_BYTES = 1024 * 1024;

/** A file's text, or why it was not read (a clause: "it is a link that leads out of the folder"). */
export type FolderFile = { text: string } | { refused: string };
/** A file's bytes, or why it was not read. */
export type FolderBytes = { bytes: Buffer } | { refused: string };

/** Never follow a link while opening, and never wait on a FIFO swapped in after the check. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads `name` of the folder whose real path is `realFolder` (from `realpathSync`). A link is
 * read only when its real path lies inside that folder and is a regular file itself.
 */
export function readFolderFile(realFolder: string, name: string): FolderFile {
  const read = readFolderBytes(realFolder, name);
  return 'refused' in read ? read : { text: read.bytes.toString('utf8') };
}

/** `readFolderFile`'s bytes, undecoded, for a reader that decides the encoding itself (config.jsonc). */
export function readFolderBytes(realFolder: string, name: string): FolderBytes {
  const path = join(realFolder, name);
  let info: Stats;
  try {
    info = lstatSync(path);
  } catch (e) {
    return { refused: `it cannot be read (${fsReason(e)})` };
  }
  let target = path;
  if (info.isSymbolicLink()) {
    try {
      target = realpathSync(path);
    } catch {
      return { refused: 'it is a symbolic link to nothing (a dangling link)' };
    }
    if (!isInside(realFolder, target)) return { refused: 'it is a symbolic link that leads out of its folder' };
    try {
      info = lstatSync(target);
    } catch (e) {
      return { refused: `it cannot be read (${fsReason(e)})` };
    }
  }
  if (!info.isFile()) return { refused: `it is ${kindOf(info)}, not a regular file` };
  if (info.size > MAX_FILE_BYTES) return { refused: tooLarge(info.size) };
  return readRegularFile(target);
}

/** Opens without following links, checks the opened file again, and reads at most the cap. */
function readRegularFile(path: string): FolderBytes {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    return { refused: `it cannot be read (${fsReason(e)})` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { refused: `it is ${kindOf(info)}, not a regular file` };
    if (info.size > MAX_FILE_BYTES) return { refused: tooLarge(info.size) };
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_FILE_BYTES) return { refused: tooLarge(length) };
    }
    return { bytes: buffer.subarray(0, length) };
  } catch (e) {
    return { refused: `it cannot be read (${fsReason(e)})` };
  } finally {
    closeSync(fd);
  }
}

/** The files of a benchmark folder read by `readFolderFile`, and the ones refused, by name. */
export interface FolderRead {
  files: Map<string, string>;
  refused: Map<string, string>;
}

/**
 * Reads `benchmark.json` and the top-level `.md` files of a folder. The folder itself may be a
 * link (the user named it); its files may not leave it. `override` gives a text in place of a
 * file that passed the checks (the editor's unsaved text). Throws only when the folder itself
 * cannot be listed.
 */
export function readBenchmarkFiles(
  dir: string,
  wanted: (name: string) => boolean,
  override?: (path: string) => string | undefined,
): FolderRead {
  const realFolder = realpathSync(dir);
  const result: FolderRead = { files: new Map(), refused: new Map() };
  for (const name of readdirSync(realFolder).filter(wanted).sort()) {
    const file = readFolderFile(realFolder, name);
    if ('refused' in file) {
      result.refused.set(name, file.refused);
      continue;
    }
    const text = override?.(join(dir, name)) ?? file.text;
    if (text.length > MAX_FILE_BYTES) result.refused.set(name, tooLarge(text.length));
    else result.files.set(name, text);
  }
  return result;
}

/** True when `target` (a real path) lies inside `realFolder`, not at it or above it. */
export function isInside(realFolder: string, target: string): boolean {
  const path = relative(realFolder, target);
  return path !== '' && path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path);
}

function tooLarge(bytes: number): string {
  return (
    `it is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MiB a benchmark file may have ` +
    `(${bytes.toLocaleString('en-US')} bytes or more)`
  );
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'something other than a file';
}

function fsReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'it is gone';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ELOOP') return 'a loop of links';
  return code ?? 'an error of the file system';
}

/** The names a benchmark folder's reader looks at: the manifest and the top-level markdown. */
export function isBenchmarkFileName(name: string): boolean {
  return name === MANIFEST_FILE || /\.md$/i.test(name);
}
