/**
 * Positions and ranges in LSP terms: 0-based lines, columns counted in UTF-16 code units
 * (the unit of JavaScript strings), so they can be handed to an editor unchanged.
 */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Maps UTF-16 offsets of one text to positions and back; built once per document. */
export class LineIndex {
  /** Offset at which each line starts. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** The text of a line without its line break. */
  lineText(line: number): string {
    const start = this.lineStarts[line];
    if (start === undefined) return '';
    const next = this.lineStarts[line + 1];
    let end = next ?? this.text.length;
    if (next !== undefined) {
      end--;
      if (this.text.charCodeAt(end) === 10 && this.text.charCodeAt(end - 1) === 13) end--;
    }
    return this.text.slice(start, end);
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= clamped) lo = mid;
      else hi = mid - 1;
    }
    const character = Math.min(clamped - (this.lineStarts[lo] ?? 0), this.lineText(lo).length);
    return { line: lo, character };
  }

  offsetAt(position: Position): number {
    const start = this.lineStarts[position.line];
    if (start === undefined) return this.text.length;
    return start + Math.min(position.character, this.lineText(position.line).length);
  }

  /** The same range moved onto real characters of the text. */
  clamp(r: Range): Range {
    return { start: this.positionAt(this.offsetAt(r.start)), end: this.positionAt(this.offsetAt(r.end)) };
  }

  rangeOf(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }
}

export function range(line: number, startChar: number, endLine: number, endChar: number): Range {
  return { start: { line, character: startChar }, end: { line: endLine, character: endChar } };
}

/** A range on one line, from `start` to `end` columns. */
export function lineRange(line: number, start: number, end: number): Range {
  return range(line, start, line, end);
}

export function comparePositions(left: Position, right: Position): number {
  return left.line - right.line || left.character - right.character;
}

export function containsPosition(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}
