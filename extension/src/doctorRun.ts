/**
 * "Check this model" without VS Code: the `mmb doctor` the run view starts for config.jsonc's
 * persona model, and what the notification says when it ends (its exit status and last line) and
 * offers: config.jsonc names the model, and its output holds every capability's line.
 */
import { ACTION, type Toast } from './toasts';

/** The name `mmb doctor` gives config.jsonc's persona model. */
export const PERSONA_MODEL = 'persona';

/** `mmb doctor persona --config <file>`: the arguments after the CLI's path. */
export function doctorArguments(configFile: string): string[] {
  return ['doctor', PERSONA_MODEL, '--config', configFile];
}

export type DoctorVerdict = Omit<Toast, 'subject'>;

/** The last line of the output that says something, without the CLI's `mmb: ` prefix. */
function lastLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return (lines.at(-1) ?? '').replace(/^mmb: /, '').slice(0, 300);
}

/** The notification for an `mmb doctor` that ended with `code` (null: killed) after printing `output`. */
export function doctorVerdict(code: number | null, output: string): DoctorVerdict {
  const said = lastLine(output);
  const actions = [ACTION.openConfig, ACTION.showOutput];
  if (code === 0) return { severity: 'info', text: `The persona's model passes every check. ${said}`.trim(), actions: [] };
  if (code === 1) return { severity: 'warning', text: `The persona's model failed a check: ${said}`, actions };
  // Could not start is amber, as a run that could not start; only a check that stopped midway is red.
  if (code === 2) return { severity: 'warning', text: `Check this model could not start: ${said}`, actions };
  const how = code === null ? 'killed' : `exit ${code}`;
  return { severity: 'error', text: `Check this model stopped (${how}): ${said || 'no output'}`, actions: [ACTION.showOutput] };
}
