/**
 * The sandbox's worker thread: loads QuickJS once, then runs the blocks the engine's thread
 * sends, one at a time, and answers each with its result or its error.
 */
import { parentPort } from 'node:worker_threads';
import { loadQuickJs, runBlock } from './isolate';
import { type BlockReply, type BlockRequest } from './sandbox';
import { JsBlockError } from '../errors';

const port = parentPort!;
const answer = (reply: BlockReply) => port.postMessage(reply);
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

loadQuickJs().then(
  () => answer({ ready: true }),
  (error: unknown) => answer({ failure: message(error) }),
);
port.on('message', (request: BlockRequest) => {
  runBlock(request).then(
    (result) => answer({ id: request.id, result }),
    (error: unknown) =>
      answer(error instanceof JsBlockError ? { id: request.id, error: error.message } : { id: request.id, failure: message(error) }),
  );
});
