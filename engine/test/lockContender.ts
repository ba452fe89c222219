/**
 * One contender of the lock race (lock.test.ts): for each trial folder, waits for the trial's
 * start moment, tries to take the run's lock, and prints `<trial> won` or `<trial> lost`. It keeps
 * every lock it won until it exits, so a slow contender finds the winner alive.
 */
import { join } from 'node:path';
import { acquireLock } from '../src/workspace/lock';

const [base = '', trialsText = '0', startText = '0', spacingText = '0'] = process.argv.slice(2);
for (let trial = 0; trial < Number(trialsText); trial++) {
  const at = Number(startText) + trial * Number(spacingText);
  while (Date.now() < at) {
    // Spinning, not sleeping: the contenders should hit the lock in the same millisecond.
  }
  const result = acquireLock(join(base, String(trial)));
  process.stdout.write(`${trial} ${result.ok ? 'won' : 'lost'}\n`);
}
