/**
 * The files of a zip archive (a .vsix is one), read with node's zlib alone: the end record gives the central
 * directory, each of its entries a file's name and where its local header and data sit, stored or deflated.
 */
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** Every file of the archive by its path, its bytes uncompressed. */
export function zipEntries(archive: Buffer): Map<string, Buffer> {
  // The end record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
  let end = archive.length - 22;
  while (end >= 0 && archive.readUInt32LE(end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < 0 || archive.length - end > 22 + 0xffff) throw new Error('not a zip archive: no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let entry = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(entry) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`zip entry ${index}: bad central directory`);
    const method = archive.readUInt16LE(entry + 10);
    const compressedSize = archive.readUInt32LE(entry + 20);
    const nameLength = archive.readUInt16LE(entry + 28);
    const extraLength = archive.readUInt16LE(entry + 30);
    const commentLength = archive.readUInt16LE(entry + 32);
    const local = archive.readUInt32LE(entry + 42);
    const name = archive.toString('utf8', entry + 46, entry + 46 + nameLength);
    if (archive.readUInt32LE(local) !== LOCAL_FILE_HEADER) throw new Error(`${name}: bad local header`);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + compressedSize);
    if (method !== STORED && method !== DEFLATED) throw new Error(`${name}: compression method ${method}`);
    files.set(name, method === STORED ? Buffer.from(data) : inflateRawSync(data));
    entry += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
