/** `benchmark.json`: the manifest of a benchmark folder. */
import type { Node } from 'jsonc-parser';
import { dayNumber } from './inline';
import { JsoncDocument } from './jsonc';
import type { Diagnostic } from './diagnostics';
import type { Range } from './text';

export interface ListedFile {
  file: string;
  range: Range;
}

export interface Manifest {
  chapters: ListedFile[];
  /** Listed explicitly; otherwise every other `.md` of the folder is a sheet. */
  sheets?: ListedFile[];
  title?: string;
  time_master: boolean;
  time_gate: boolean;
  /** `YYYY-MM-DD HH:MM`, a wall-clock moment. */
  start_time?: string;
  start_time_range?: Range;
}

export const MANIFEST_KEYS = ['chapters', 'sheets', 'title', 'time_master', 'time_gate', 'start_time', '$schema'] as const;
export const MANIFEST_FILE = 'benchmark.json';

export interface ManifestParse {
  /** Undefined when the file is not a usable manifest (no `chapters` list). */
  manifest?: Manifest;
  diagnostics: Diagnostic[];
  lines: JsoncDocument['lines'];
}

export function parseManifest(text: string, file = MANIFEST_FILE): ManifestParse {
  const doc = new JsoncDocument(text, file, 'invalid-manifest');
  const props = JsoncDocument.properties(doc.root);
  doc.unknownKeys(doc.root, MANIFEST_KEYS, file);
  const files = (key: 'chapters' | 'sheets'): ListedFile[] | undefined => {
    const node = props.get(key)?.value;
    if (!node) return undefined;
    if (node.type !== 'array') {
      doc.report(doc.rangeOf(node), `\`${key}\` must be a list of file names, as in ["chapter1.md", "chapter2.md"].`);
      return undefined;
    }
    const out: ListedFile[] = [];
    const seen = new Set<string>();
    for (const item of node.children ?? []) {
      const name = doc.expect(item, 'string', `Each entry of \`${key}\``);
      if (name === undefined) continue;
      if (!/\.md$/i.test(name) || /[\\/]/.test(name)) {
        doc.report(doc.rangeOf(item), `\`${name}\` must be the name of a .md file in the benchmark folder.`);
        continue;
      }
      if (seen.has(name)) doc.report(doc.rangeOf(item), `\`${name}\` is listed twice in \`${key}\`; remove one.`);
      else {
        seen.add(name);
        out.push({ file: name, range: stringRange(doc, item) });
      }
    }
    if (key === 'chapters' && out.length === 0 && (node.children ?? []).length === 0) {
      doc.report(
        doc.rangeOf(node),
        'A benchmark needs at least one chapter: list the chapter files in play order, as in "chapters": ["chapter1.md"].',
      );
    }
    return out;
  };

  if (doc.root?.type === 'object' && !props.has('chapters')) {
    doc.report(
      doc.lines.rangeOf(doc.root.offset, doc.root.offset + 1),
      `${file} needs a \`chapters\` list: the chapter files in play order, as in "chapters": ["chapter1.md"].`,
    );
  }
  const chapters = files('chapters');
  const sheets = files('sheets');
  const title = doc.expect(props.get('title')?.value, 'string', '`title`');
  const time_master = doc.expect(props.get('time_master')?.value, 'boolean', '`time_master`') ?? false;
  const time_gate = doc.expect(props.get('time_gate')?.value, 'boolean', '`time_gate`') ?? false;
  const startNode = props.get('start_time')?.value;
  const start_time = doc.expect(startNode, 'string', '`start_time`');
  let startOk = start_time;
  if (start_time !== undefined && !isStartTime(start_time)) {
    doc.report(
      doc.rangeOf(startNode),
      `\`start_time\` "${start_time}" is not a moment: write "YYYY-MM-DD HH:MM", as in "2026-03-01 20:00".`,
    );
    startOk = undefined;
  }
  if (!chapters) return { diagnostics: doc.diagnostics, lines: doc.lines };
  const manifest: Manifest = { chapters, time_master, time_gate };
  if (sheets) manifest.sheets = sheets;
  if (title !== undefined) manifest.title = title;
  if (startOk !== undefined && startNode) {
    manifest.start_time = startOk;
    manifest.start_time_range = stringRange(doc, startNode);
  }
  return { manifest, diagnostics: doc.diagnostics, lines: doc.lines };
}

function isStartTime(text: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})$/.exec(text);
  return !!m && dayNumber(m[1] ?? '') !== undefined && Number(m[2]) < 24 && Number(m[3]) < 60;
}

/** The range of a string value without its quotes. */
function stringRange(doc: JsoncDocument, node: Node): Range {
  return doc.lines.rangeOf(node.offset + 1, node.offset + node.length - 1);
}

/** The start time as a wall-clock `Date` (UTC fields hold the wall clock). */
export function startMoment(startTime: string): Date {
  return new Date(`${startTime.replace(' ', 'T')}:00Z`);
}
