/**
 * How config.jsonc's bytes become text, the one way `mmb check`, `mmb run` and the editor's
 * readers share: UTF-8 with at most one byte order mark. Anything else is refused in one line
 * rather than guessed at, since a guess could read a run other than the one the author wrote.
 */

/** Why the bytes are not UTF-8 text config.jsonc may hold, as the end of a sentence; undefined when they are. */
export function configBytesProblem(bytes: Uint8Array): string | undefined {
  const [first, second, third, fourth] = bytes;
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff))
    return 'it is saved as UTF-16 (its first bytes are a UTF-16 byte order mark): save it as UTF-8';
  if (first === 0 && second === 0 && third === 0xfe && fourth === 0xff) return 'it is saved as UTF-32: save it as UTF-8';
  if (bytes.includes(0)) return 'it holds NUL bytes, as UTF-16 or UTF-32 text does: save it as UTF-8';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return `it is not UTF-8 text (byte ${firstInvalidByte(bytes) + 1} is not valid UTF-8): save it as UTF-8`;
  }
  return undefined;
}

/**
 * The text of config.jsonc's bytes, its byte order mark kept (the parser allows one and refuses
 * a second), or why it cannot be read.
 */
export function decodeConfigBytes(bytes: Uint8Array): { text: string } | { problem: string } {
  const problem = configBytesProblem(bytes);
  if (problem) return { problem };
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
}

/** The one line for config.jsonc text that starts with two byte order marks or more; undefined when it does not. */
export function configBomProblem(text: string, file: string): string | undefined {
  return text.startsWith('\uFEFF\uFEFF')
    ? `${file} starts with more than one byte order mark (U+FEFF): save it as UTF-8 with one or none.`
    : undefined;
}

/**
 * The one line that refuses config.jsonc's bytes before any key is read, as `mmb check` and
 * `mmb run` print it: not UTF-8, or two byte order marks. The editor asks it of the file on disk,
 * since the text it is given has already lost a BOM and been decoded by the editor's own guess.
 */
export function configFileProblem(bytes: Uint8Array, file: string): string | undefined {
  const decoded = decodeConfigBytes(bytes);
  return 'problem' in decoded ? `${file} is not read: ${decoded.problem}.` : configBomProblem(decoded.text, file);
}

/** The 0-based offset of the first byte a strict UTF-8 decoder refuses, found by halving (an unfinished last character: its end). */
function firstInvalidByte(bytes: Uint8Array): number {
  // A streaming decode refuses a prefix only when a wrong byte is in it, not when it stops mid-character.
  const decodes = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (decodes(middle)) good = middle;
    else bad = middle;
  }
  // The byte that broke the decode may follow the unfinished character it broke: that character's first byte is the one to name.
  for (let back = 1; back <= 3 && good - back >= 0; back++) {
    const byte = bytes[good - back]!;
    if (byte < 0x80) break;
    if (byte >= 0xc0) return back < (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) ? good - back : good;
  }
  return good;
}
