/**
 * The validator's diagnostics in LSP form. Which files to validate and publish is the publisher's
 * business (`BenchmarkValidation` keeps the lists of files a change cannot reach).
 */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic } from '../../../scenario/src';
import type { UriOf } from './navigation';

export function toLsp(d: Diagnostic, uriOf: UriOf): LspDiagnostic {
  const out: LspDiagnostic = {
    range: d.range,
    severity: d.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: 'mmb',
    message: d.message,
  };
  if (d.related?.length)
    out.relatedInformation = d.related.map((r) => ({ location: { uri: uriOf(r.file), range: r.range }, message: r.message }));
  if (d.suggestions?.length) out.data = { suggestions: d.suggestions };
  return out;
}
