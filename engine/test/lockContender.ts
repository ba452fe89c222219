/**
 * One contender of the lock race (lock.test.ts): for each trial folder, waits for the trial's
 * start moment, tries to take the run's lock, and prints `<trial> won` or `<trial> lost`. It keeps
 * every lock it won until every contender is done (`<contenders>` files `done-<pid>` in the base),
 * so a slow contender finds the winner alive: a winner that exited leaves a lock that is stale,
 * and rightly taken over.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../src/workspace/lock';

const [base = '', trialsText = '0', startText = '0', spacingText = '0', contendersText = '1'] = process.argv.slice(2);
for (let trial = 0; trial < Number(trialsText); trial++) {
  const at = Number(startText) + trial * Number(spacingText);
  while (Date.now() < at) {
    // Spinning, not sleeping: the contenders should hit the lock in the same millisecond.
  }
  const result = acquireLock(join(base, String(trial)));
  process.stdout.write(`${trial} ${result.ok ? 'won' : 'lost'}\n`);
}
writeFileSync(join(base, `done-${process.pid}`), '');
const deadline = Date.now() + 60_000;
while (readdirSync(base).filter((name) => name.startsWith('done-')).length < Number(contendersText) && Date.now() < deadline)
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
