/** The chapter an open document is, with the benchmark as the editor holds it now: shared by the lenses and the marks. */
import { basename } from 'node:path';
import type * as vscode from 'vscode';
import type { Benchmark } from '../../scenario/src';
import { withChapterText } from './chapterMarks';
import type { RunsHub } from './runsHub';

export interface ChapterAt {
  dir: string;
  benchmark: Benchmark;
  file: string;
}

/** The chapter a document is, with the benchmark as the editor holds it now (unsaved text in place of the file's). */
export class ChapterCache {
  private readonly byDocument = new Map<string, { version: number; source: Benchmark; at: ChapterAt }>();

  constructor(private readonly wb: RunsHub) {}

  chapterOf(doc: vscode.TextDocument): ChapterAt | undefined {
    if (doc.uri.scheme !== 'file' || doc.languageId !== 'markdown') return undefined;
    // Runs play `benchmarks/<name>` alone: a copy elsewhere would get another benchmark's scores.
    const dir = this.wb.benchmarkDirOf(doc.uri.fsPath);
    const source = dir ? this.wb.benchmark(dir) : undefined;
    const file = basename(doc.uri.fsPath);
    if (!dir || !source || !source.chapters.some((c) => c.file === file)) return undefined;
    const key = doc.uri.toString();
    const cached = this.byDocument.get(key);
    if (cached && cached.version === doc.version && cached.source === source) return cached.at;
    const at = { dir, file, benchmark: doc.isDirty ? withChapterText(source, file, doc.getText()) : source };
    this.byDocument.set(key, { version: doc.version, source, at });
    return at;
  }

  forget(doc: vscode.TextDocument): void {
    this.byDocument.delete(doc.uri.toString());
  }
}
