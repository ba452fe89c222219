/** The hermes adapter's own duties, against the protocol server: adopted session ids, compression keys, compactions, keys kept out of errors. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HermesAdapter, hermesOptions } from '../src/adapters/hermes';
import { ConfigError } from '../src/errors';
import { startFakeHermes } from './hermesServer';
import { tempDir } from './helpers';

const KEY = 'hermes-key-abcdef123456';

async function say(a: HermesAdapter, text: string, key: string): Promise<void> {
  await a.sendMessage(text, { idempotencyKey: key });
  while ((await a.getStatus()).state === 'thinking') await new Promise((r) => setTimeout(r, 5));
}

test('a session id Hermes returns after compressing is adopted; compressions are read from its log; compression keys go into config.yaml', async () => {
  const home = tempDir('mmb-hermes-');
  writeFileSync(join(home, 'config.yaml'), 'model: deepseek-v4-flash\ncompression:\n  threshold: 0.5\n');
  const server = await startFakeHermes(KEY, home, 2);
  try {
    const options = hermesOptions({ hermes_url: server.url, hermes_home: home, hermes_compression_threshold: 0.125, hermes_compression_target_ratio: 0.12 }, { HERMES_API_KEY: KEY });
    const dir = tempDir();
    const a = new HermesAdapter(dir, options);
    await a.createSession('run');
    assert.equal(readFileSync(join(home, 'config.yaml'), 'utf8'), 'model: deepseek-v4-flash\n# mmb: compression\ncompression:\n  threshold: 0.125\n  target_ratio: 0.12\n# mmb: end\n');
    await say(a, 'The boat is called Wren.', 'k1');
    await say(a, 'It is moored in Bristol.', 'k2');
    await say(a, 'Where is the boat moored?', 'k3');
    const replies = await a.getResponses(0);
    assert.equal(replies.length, 3);
    assert.match(replies[2]?.text ?? '', /Bristol/);
    const status = await a.getStatus();
    assert.deepEqual(status.compactions?.map((c) => [c.tokensBefore, c.tokensAfter]), [[12000, 4000], [12000, 4000]]);
    assert.equal(server.sessions.size, 3, 'each compression moved the conversation to the session Hermes returned');
    assert.equal(JSON.parse(readFileSync(join(dir, 'hermes.json'), 'utf8')).sessionId, 'sess-3');
  } finally {
    await server.close();
  }
});

test('without its key the adapter says which variable to set; a wrong key fails with the key blanked out', async () => {
  assert.throws(() => hermesOptions({}, {}), (e: unknown) => e instanceof ConfigError && /set the environment variable HERMES_API_KEY/.test(e.message));
  const server = await startFakeHermes(KEY, tempDir());
  try {
    const a = new HermesAdapter(tempDir(), hermesOptions({ hermes_url: server.url }, { HERMES_API_KEY: 'wrong-key-0987654321' }));
    await assert.rejects(a.createSession('run'), (e: Error) => /POST \/api\/sessions: 401/.test(e.message) && !e.message.includes('wrong-key-0987654321'));
  } finally {
    await server.close();
  }
});
