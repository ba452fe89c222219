/** `send_message`: the persona's only way to talk to the agent under test. */
import { replyText } from '../context';
import { agentTurn } from '../agentTurn';
import { fail, MAX_MESSAGE_CHARS, text, type PersonaTool } from './types';

export const sendMessageTool: PersonaTool = {
  name: 'send_message',
  position: 1,
  description: 'Send one message to the assistant and get its reply. The only way to talk to it.',
  whenToUse: "your only way to talk to the assistant; its result is the assistant's reply.",
  parameters: { text: text('What you say, in your own voice.', MAX_MESSAGE_CHARS) },
  required: ['text'],
  example: '{"text": "Hi! Quick update about the flat."}',
  async handle(args, { run, callId }) {
    const message = typeof args.text === 'string' ? args.text.trim() : '';
    if (!message) return fail('`text` must be the message for the assistant.');
    const replies = await agentTurn(run.state, run.options.adapter, callId, message, run.turnOptions());
    return { content: replyText(run, replies), effects: [] };
  },
};
