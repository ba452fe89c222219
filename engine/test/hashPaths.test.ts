/**
 * Paths with `#` (a repeat's run id, `a#1`) open from what mmb prints and from the HTML's links: `Wrote` gives the
 * file URL, percent-encoded, after a path a browser would cut at `#`; a source link's href encodes each part.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { wroteLine } from '../src/cli/wroteLine';
import { sourceLink } from '../src/report/html/page';
import { mmb, workspace } from './helpers';

test('Wrote: a plain path alone; a path with # ? % or a space, then its file URL', () => {
  assert.equal(wroteLine('/w/results/a/report.html', 'results/a/report.html'), 'Wrote results/a/report.html');
  assert.equal(
    wroteLine('/w/results/compare-a#1-vs-a#2.html', 'results/compare-a#1-vs-a#2.html'),
    'Wrote results/compare-a#1-vs-a#2.html (file:///w/results/compare-a%231-vs-a%232.html)',
  );
  assert.equal(wroteLine('/w/my results/x.html', 'my results/x.html'), 'Wrote my results/x.html (file:///w/my%20results/x.html)');
});

test("a source link's href percent-encodes each part of its path", () => {
  const link = sourceLink({ file: 'results/a#1/benchmark/chapter1.md', line: 3 }, { linkBase: '../..' });
  assert.match(link, /href="\.\.\/\.\.\/results\/a%231\/benchmark\/chapter1\.md"/);
  assert.match(link, /data-file="results\/a#1\/benchmark\/chapter1\.md"/, 'the editor reads the path as it is');
  assert.match(
    sourceLink({ file: 'benchmarks/starter/chapter1.md', line: 1 }, { linkBase: '../..' }),
    /href="\.\.\/\.\.\/benchmarks\/starter/,
  );
});

test('mmb report --compare a#1 a#2: the printed URL opens the file written', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  assert.equal(mmb(['run', 'a', '--repeat', '2'], dir).code, 0);
  const r = mmb(['report', '--compare', 'a#1', 'a#2'], dir);
  assert.equal(r.code, 0, r.stderr);
  const line = r.stdout.split('\n').find((text) => text.startsWith('Wrote '));
  const match = /^Wrote results\/compare-a#1-vs-a#2\.html \((file:\/\/\S+)\)$/.exec(line ?? '');
  assert.ok(match, r.stdout);
  assert.match(match[1]!, /compare-a%231-vs-a%232\.html$/);
  const opened = fileURLToPath(match[1]!);
  assert.equal(opened, resolve(join(dir, 'results', 'compare-a#1-vs-a#2.html')));
  assert.ok(existsSync(opened));
});
