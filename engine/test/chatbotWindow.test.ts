/**
 * The chatbot's context window (`chatbot_context_tokens`): with none it answers from the whole
 * conversation; with one, what was told before the window's start is gone, as from a real model
 * of that window, while what is inside it is still answered; a bad value is one config line.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChatbotAdapter, chatbotContextTokens } from '../src/adapters/chatbot';
import { ConfigError } from '../src/errors';
import { InProcessStandIn } from '../src/standin/inProcess';
import { tempDir } from './helpers';

async function ask(window: number | undefined): Promise<string> {
  const bot = new ChatbotAdapter(tempDir('mmb-window-'), new InProcessStandIn(), undefined, window);
  await bot.createSession();
  let key = 0;
  const say = async (text: string) => {
    await bot.sendMessage(text, { idempotencyKey: `k${key++}` });
    await bot.whenSettled();
  };
  await say('My bike lock code is 4821.');
  for (let n = 0; n < 40; n++) await say(`Today I walked past the old harbour number ${n} and watched the ferries come in for a while.`);
  await say('What is my bike lock code?');
  const replies = await bot.getResponses(0);
  return replies.at(-1)?.text ?? '';
}

test('without a window the chatbot answers from the whole conversation; with one it loses what fell out of it', async () => {
  assert.match(await ask(undefined), /4821/);
  assert.doesNotMatch(await ask(600), /4821/);
  assert.match(await ask(100_000), /4821/);
});

test('a window that is not a whole number in range is one config line naming the key', () => {
  assert.equal(chatbotContextTokens({}), undefined);
  assert.equal(chatbotContextTokens({ chatbot_context_tokens: 8000 }), 8000);
  for (const bad of [499, 8000.5, '8000', 3_000_000])
    assert.throws(
      () => chatbotContextTokens({ chatbot_context_tokens: bad }),
      (e: unknown) => e instanceof ConfigError && /^the run key `chatbot_context_tokens` must be a whole number from 500/.test(e.message),
    );
});
