/**
 * A fake agent behind an OpenAI-compatible API that keeps each conversation itself, as nanobot's
 * `serve` does: `/chat/completions` with the conversation named by a body field or a header, and
 * the Responses API with `conversation` or `previous_response_id`. It answers like the stand-in's
 * agent, from the user messages of that conversation only, so a new name forgets the context.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { agentAnswer } from '../src/standin/agent';

export interface FakeHttpAgent {
  url: string;
  /** Every request's conversation name, in order. */
  names: string[];
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  return JSON.parse(text) as Record<string, unknown>;
}

export async function startFakeHttpAgent(apiKey: string): Promise<FakeHttpAgent> {
  const conversations = new Map<string, string[]>();
  const responses = new Map<string, string>();
  const names: string[] = [];
  let count = 0;
  const server = createServer((request, response) => {
    void (async () => {
      if (request.headers.authorization !== `Bearer ${apiKey}`) return void response.writeHead(401).end('{"error":"bad key"}');
      const body = await bodyOf(request);
      const isResponses = request.url === '/v1/responses';
      const name = isResponses
        ? String(
            body.conversation ??
              (typeof body.previous_response_id === 'string' ? responses.get(body.previous_response_id) : undefined) ??
              `fresh-${++count}`,
          )
        : String(body.session_id ?? request.headers['x-session-id'] ?? 'default');
      names.push(name);
      const text = isResponses ? String(body.input) : String((body.messages as { content: string }[]).at(-1)?.content);
      const said = [...(conversations.get(name) ?? []), text];
      conversations.set(name, said);
      const answer = agentAnswer(said.map((content) => ({ role: 'user', content })));
      const id = `resp_${++count}`;
      responses.set(id, name);
      const reply = isResponses
        ? { id, object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: answer }] }] }
        : {
            id,
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
          };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, names, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
