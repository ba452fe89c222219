/** Names of runs made up outside config.jsonc; the CLI and the editor agree on them. */

/** The name of a partial run: `<run>.phase-chapter2-1`, `<run>.from-chapter2-1.rehearsal`. */
export function partialRunName(run: string, chapter: string, phase: number, only: boolean, rehearse: boolean): string {
  return `${run}.${only ? 'phase' : 'from'}-${chapter.replace(/\.md$/i, '')}-${phase}${rehearse ? '.rehearsal' : ''}`;
}

/**
 * The longest run id: a config name of up to MAX_NAME_LENGTH plus a partial run's suffix, well
 * under the 255 bytes a file system gives one name (ids are ASCII, so characters are bytes).
 */
export const MAX_RUN_ID_LENGTH = 200;

/** Why a run id given to `mmb run` or `mmb report` cannot name one folder of results/; undefined when it can. */
export function runIdProblem(id: string): string | undefined {
  if (id.length > MAX_RUN_ID_LENGTH) return `the run "${clipName(id)}" cannot be a folder name: it must be at most ${MAX_RUN_ID_LENGTH} characters long (this one has ${id.length})`;
  if (!/^[A-Za-z0-9][\w.-]*$/.test(id)) return `the run "${clipName(id)}" cannot be a folder name: it may hold only letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit (no path)`;
  return undefined;
}

/** A name (or any untrusted text) cut for a one-line message. */
export function clipName(name: string, max = 60): string {
  return name.length > max ? `${name.slice(0, max - 1)}…` : name;
}
