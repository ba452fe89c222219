/**
 * The language server's latency over a real stdio connection to the built `dist/server.js`, for
 * Max (20 chapters) and generated benchmarks 10× and 100× larger (200 and 2,000 chapters): from a
 * keystroke to every file's diagnostics (the edited file's publish comes last), ten keystrokes
 * 50 ms apart at 2,000 chapters (the last one to its diagnostics), completion sent right after a
 * keystroke; and, in-process, how many files a keystroke reads from disk. Medians with min–max.
 * Prints figures; asserts nothing.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from './generate';
import { summary } from './benchStats';
import { burst, completionAfterKeystroke, editToDiagnostics, readsPerKeystroke, stdioSession } from './lspBench';

const MAX = join(__dirname, '..', 'benchmarks', 'max');

/** A benchmark's files on disk in a fresh folder: Max's own, or a generated one. */
function benchmarkOnDisk(chapters: number | 'max'): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'mmb-lsp-bench-')), 'bench');
  mkdirSync(folder);
  const files =
    chapters === 'max' ? new Map(readdirSync(MAX).map((name) => [name, readFileSync(join(MAX, name), 'utf8')])) : generate(chapters);
  for (const [name, text] of files) writeFileSync(join(folder, name), text);
  return folder;
}

void (async () => {
  console.log('\nlanguage server over stdio (dist/server.js): a keystroke in chapter3.md');
  for (const [label, size] of [
    ['Max (20 chapters)', 'max'],
    ['11× (200 chapters)', 200],
    ['112× (2,000 chapters)', 2000],
  ] as const) {
    const folder = benchmarkOnDisk(size);
    const session = await stdioSession(folder, 'chapter3.md');
    await editToDiagnostics(session, 5);
    console.log(`  ${label.padEnd(22)} keystroke → every file's diagnostics: ${summary(await editToDiagnostics(session, 30))}`);
    if (size === 2000) {
      console.log(`  ${label.padEnd(22)} 10 keystrokes 50 ms apart, the last → its diagnostics: ${summary(await burst(session, 5))}`);
      console.log(`  ${label.padEnd(22)} completion sent right after a keystroke: ${summary(await completionAfterKeystroke(session, 20))}`);
      const { reads, files } = await readsPerKeystroke(folder, 'chapter3.md');
      console.log(`  ${label.padEnd(22)} files read from disk per keystroke: ${reads} (the folder has ${files})`);
    }
    session.close();
    rmSync(join(folder, '..'), { recursive: true, force: true });
  }
  // The protocol connection keeps the event loop alive after its server is gone.
  process.exit(0);
})();
