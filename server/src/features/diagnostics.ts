/**
 * The validator's diagnostics in LSP form. Which files to validate and publish is the publisher's
 * business (`BenchmarkValidation` keeps the lists of files a change cannot reach).
 */
import { DiagnosticSeverity, type Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic } from '../../../scenario/src';
import type { UriOf } from './navigation';

export function toLsp(diagnostic: Diagnostic, uriOf: UriOf): LspDiagnostic {
  const out: LspDiagnostic = {
    range: diagnostic.range,
    severity: diagnostic.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: diagnostic.code,
    source: 'mmb',
    message: diagnostic.message,
  };
  if (diagnostic.related?.length)
    out.relatedInformation = diagnostic.related.map((r) => ({ location: { uri: uriOf(r.file), range: r.range }, message: r.message }));
  if (diagnostic.suggestions?.length) out.data = { suggestions: diagnostic.suggestions };
  return out;
}
