/** What the editor shows of a run whose agent did not start: crashed, with the reason `mmb run` printed. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI, workspace } from '../../engine/test/helpers';
import { ResultsFolder } from '../src/results';

test('an agent that does not start: the run is crashed in the editor, with its reason, as in mmb report', () => {
  const dir = workspace({
    persona: { model: 'stand-in' },
    runs: { typo: { benchmark: 'starter', agent: 'process', command: ['pythn3-mmb-missing', 'agent.py'] } },
  });
  const ran = spawnSync(process.execPath, [CLI, 'run', 'typo'], { cwd: dir, encoding: 'utf8' });
  assert.equal(ran.status, 1, ran.stderr);
  const view = new ResultsFolder(dir).runs().find((run) => run.name === 'typo');
  assert.equal(view?.status, 'crashed');
  assert.equal(view.agent, 'process');
  assert.match(
    view.error ?? '',
    /^the agent did not start: the agent's command "pythn3-mmb-missing" could not start: spawn pythn3-mmb-missing ENOENT/,
  );
});
