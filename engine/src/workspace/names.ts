/** Names of runs made up outside config.jsonc; the CLI and the editor agree on them. */

/** The name of a partial run: `<run>.phase-chapter2-1`, `<run>.from-chapter2-1.rehearsal`. */
export function partialRunName(run: string, chapter: string, phase: number, only: boolean, rehearse: boolean): string {
  return `${run}.${only ? 'phase' : 'from'}-${chapter.replace(/\.md$/i, '')}-${phase}${rehearse ? '.rehearsal' : ''}`;
}
