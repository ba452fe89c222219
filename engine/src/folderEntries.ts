/**
 * The entries of a folder someone else wrote (an agent's memory, a snapshot of it), read bounded:
 * a folder of a million names is read up to the bound, never listed whole into memory.
 */
import { opendirSync, type Dir, type Dirent } from 'node:fs';

/**
 * At most `max` entries of `folder`, sorted by name (of those read); none when it cannot be opened.
 * Dirent types are lstat's: a link is a link.
 */
export function boundedEntries(folder: string, max: number): Dirent[] {
  const entries: Dirent[] = [];
  let dir: Dir | undefined;
  try {
    dir = opendirSync(folder);
    for (let entry = dir.readSync(); entry && entries.length < max; entry = dir.readSync()) entries.push(entry);
  } catch {
    return entries;
  } finally {
    dir?.closeSync();
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
