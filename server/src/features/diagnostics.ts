/** The validator's diagnostics in LSP form, by file. */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { validateBenchmark, type Benchmark, type Diagnostic } from '../../../scenario/src';
import type { UriOf } from './navigation';

export function toLsp(d: Diagnostic, uriOf: UriOf): LspDiagnostic {
  const out: LspDiagnostic = {
    range: d.range,
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: 'mmb',
    message: d.message,
  };
  if (d.related?.length) out.relatedInformation = d.related.map((r) => ({ location: { uri: uriOf(r.file), range: r.range }, message: r.message }));
  if (d.suggestions?.length) out.data = { suggestions: d.suggestions };
  return out;
}

/** Every file of the benchmark with its diagnostics (an empty list clears old ones). */
export function getDiagnostics(b: Benchmark, uriOf: UriOf): Map<string, LspDiagnostic[]> {
  const byFile = new Map<string, LspDiagnostic[]>([...b.lines.keys()].map((f) => [f, []]));
  for (const d of validateBenchmark(b)) {
    const list = byFile.get(d.file) ?? [];
    list.push(toLsp(d, uriOf));
    byFile.set(d.file, list);
  }
  return byFile;
}
