/**
 * The tool-call probes of `mmb doctor`: one request asks for one call, another for two calls in
 * one reply, each spelled out with its arguments, and the reply must make exactly those calls.
 */
import type { ChatModel, ToolSpec } from '../models/chat';
import type { ChatMessage, ToolCall } from '../protocol/chat';
import { shorten } from '../../../scenario/src/plainText';
import type { DoctorResult } from './lines';

const cityTool = (name: string, description: string): ToolSpec => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'A city name.' } }, required: ['city'] },
  },
});

const TOOLS: ToolSpec[] = [cityTool('get_weather', "Today's weather in a city."), cityTool('get_time', 'The local time in a city.')];

interface WantedCall {
  name: string;
  city: string;
}

const instruction = (call: WantedCall): string => `\`${call.name}\` with the arguments {"city": "${call.city}"}`;

/** The probes: what each asks for, and the calls its reply must make. */
export const TOOL_PROBES: readonly { label: string; calls: readonly WantedCall[] }[] = [
  { label: 'one call', calls: [{ name: 'get_weather', city: 'Paris' }] },
  {
    label: 'two calls in one reply',
    calls: [
      { name: 'get_weather', city: 'Lisbon' },
      { name: 'get_time', city: 'Tokyo' },
    ],
  },
];

function probeMessages(calls: readonly WantedCall[]): ChatMessage[] {
  const asked =
    calls.length === 1
      ? `Call ${instruction(calls[0]!)}.`
      : `In this one reply, call both ${calls.map(instruction).join(' and ')}: two tool calls at once.`;
  return [
    {
      role: 'system',
      content: 'You are a helpful assistant. When the user asks for tool calls, make them at once; do not answer in words.',
    },
    { role: 'user', content: asked },
  ];
}

/** What is wrong with a reply's calls for what was asked, or undefined when they are right. */
export function callProblem(wanted: readonly WantedCall[], calls: readonly ToolCall[], content: string | null): string | undefined {
  if (calls.length === 0) return content?.trim() ? `no tool call, plain text: "${shorten(content.trim(), 60)}"` : 'an empty reply';
  if (calls.length < wanted.length) return `${calls.length} call for ${wanted.length} asked: one call per reply at most`;
  for (const want of wanted) {
    const call = calls.find((candidate) => candidate.function.name === want.name);
    if (!call) return `no call of ${want.name} (called ${calls.map((c) => shorten(c.function.name, 30)).join(', ')})`;
    let args: unknown;
    try {
      args = JSON.parse(call.function.arguments);
    } catch {
      return `${want.name}'s arguments are not JSON: ${shorten(call.function.arguments, 40)}`;
    }
    const city = typeof args === 'object' && args !== null ? (args as { city?: unknown }).city : undefined;
    if (typeof city !== 'string') return `${want.name} without a string "city"`;
    if (city.trim().toLowerCase() !== want.city.toLowerCase()) return `${want.name} for "${shorten(city, 30)}", not ${want.city}`;
  }
  const extra = calls.filter((call) => !wanted.some((want) => want.name === call.function.name));
  return extra.length ? `a call of a tool not offered: ${shorten(extra[0]!.function.name, 30)}` : undefined;
}

/** Both probes, at once; the line fails on the first that fails. */
export async function probeToolCalls(model: ChatModel): Promise<DoctorResult> {
  const outcomes = await Promise.all(
    TOOL_PROBES.map(async (probe) => {
      const reply = await model.complete({ messages: probeMessages(probe.calls), tools: TOOLS });
      return { probe, problem: callProblem(probe.calls, reply.message.tool_calls ?? [], reply.message.content) };
    }),
  );
  const failed = outcomes.find((outcome) => outcome.problem !== undefined);
  if (failed) return { id: 'tool-calls', status: 'fail', detail: `${failed.probe.label}: ${failed.problem}` };
  return { id: 'tool-calls', status: 'pass', detail: TOOL_PROBES.map((probe) => `${probe.label} made as asked`).join('; ') };
}
