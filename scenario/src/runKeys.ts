/**
 * The keys of a run in config.jsonc against the agent it names, from the module generated from
 * the engine's agent registry: `mmb check` and the editor refuse the run keys a run would refuse.
 */
import type { Node } from 'jsonc-parser';
import { AGENT_RUN_KEYS, MODULE_AGENT_RUN_KEYS, type AgentRunKey } from './agents.generated';
import { isCredentialKey } from './credentials';
import { envNameProblem, envPatternProblem, envValueProblem, MAX_ENV_ENTRIES, shownName } from './envVars';
import { JsoncDocument } from './jsonc';
import { didYouMeanText, nearNames } from './suggest';
import { shorten } from './plainText';

/** Every agent name a run's `agent` may hold. */
export const AGENT_NAMES: readonly string[] = Object.keys(AGENT_RUN_KEYS);

/**
 * A run's `agent` may also name a module of the workspace (`./agents/my-agent.mjs`): a relative
 * path that starts with `./`, has no `..` part and ends in a JavaScript or TypeScript extension.
 */
export const MODULE_AGENT_PATTERN = /^\.\/(?!(?:.*\/)?\.\.(?:\/|$))[\w./-]{1,400}\.(?:mjs|cjs|js|mts|ts)$/;

/** Whether an agent name is a module path rather than one of the registry's agents. */
export function isModuleAgent(agent: string): boolean {
  return MODULE_AGENT_PATTERN.test(agent);
}

/** The run keys every run has; the engine's agent registry documents them and owns every other run key. */
export const SHARED_RUN_KEYS = ['benchmark', 'agent', 'ignore_session_break'] as const;

/** Paths, URLs, commands and names in run keys are short; the engine refuses a longer one too. */
const MAX_RUN_KEY_TEXT = 4096;
/** A list run key (a command and its arguments) holds at most this many strings, as the engine checks. */
const MAX_RUN_KEY_LIST = 64;

type Properties = Map<string, { key: Node; value: Node }>;

/** What checks a model object (`agent_model`), given by the config parser. */
export type ModelCheck = (node: Node, where: string) => void;

/** The agents that read a run key, for the message about a key of another agent. */
function ownersOf(name: string): string[] {
  return AGENT_NAMES.filter((agent) => Object.hasOwn(AGENT_RUN_KEYS[agent] ?? {}, name));
}

function allAgentKeys(): Record<string, AgentRunKey> {
  return Object.assign({}, ...AGENT_NAMES.map((agent) => AGENT_RUN_KEYS[agent]));
}

/**
 * Reports an unknown agent and each key of the run that its agent does not read (with the keys
 * nearest to it); when the agent is unknown or missing, a key is checked against every agent's.
 * Returns nothing: the diagnostics go to `doc`.
 */
export function checkRunKeys(doc: JsoncDocument, name: string, runKey: Node, props: Properties, checkModel: ModelCheck): void {
  const where = `run \`${name}\``;
  const agentNode = props.get('agent')?.value;
  const agent = agentNode?.type === 'string' && typeof agentNode.value === 'string' ? agentNode.value : undefined;
  const own =
    agent === undefined
      ? undefined
      : isModuleAgent(agent)
        ? MODULE_AGENT_RUN_KEYS
        : Object.hasOwn(AGENT_RUN_KEYS, agent)
          ? AGENT_RUN_KEYS[agent]
          : undefined;
  if (agent !== undefined && own === undefined) reportUnknownAgent(doc, where, agent, agentNode);
  for (const required of ['benchmark', 'agent'] as const) {
    if (props.has(required)) continue;
    const near = [...props.keys()].find((key) => nearNames(key, [required]).length > 0);
    const hint = near === undefined ? '' : ` Did you mean \`${near.slice(0, 80)}\` to be \`${required}\`?`;
    doc.report(doc.rangeOf(runKey), `${where} needs \`${required}\`.${hint}`);
  }
  const keys = own ?? allAgentKeys();
  const known = [...SHARED_RUN_KEYS, ...Object.keys(keys)];
  for (const [key, { key: keyNode, value }] of props) {
    if ((SHARED_RUN_KEYS as readonly string[]).includes(key) || isCredentialKey(key)) continue;
    const declared = Object.hasOwn(keys, key) ? keys[key] : undefined;
    if (declared) checkRunKeyValue(doc, `${where}: \`${key}\``, value, declared, () => checkModel(value, `runs.${name}.${key}`));
    else reportUnknownRunKey(doc, { where, agent: own ? agent : undefined, key, keyNode, known });
  }
}

function reportUnknownAgent(doc: JsoncDocument, where: string, agent: string, node: Node | undefined): void {
  const shown = shorten(agent, 80);
  const suggestions = nearNames(agent, AGENT_NAMES);
  doc.report(
    doc.rangeOf(node),
    `${where}: there is no agent "${shown}": use one of ${[...AGENT_NAMES].sort().join(', ')}, ` +
      `or a module of the workspace such as "./agents/my-agent.mjs".${didYouMeanText(suggestions)}`,
    'invalid-config',
    suggestions.map((s) => JSON.stringify(s)),
  );
}

interface UnknownRunKey {
  where: string;
  /** The run's agent, when it is a known one. */
  agent: string | undefined;
  key: string;
  keyNode: Node;
  known: string[];
}

function reportUnknownRunKey(doc: JsoncDocument, unknown: UnknownRunKey): void {
  const { where, agent, key, keyNode, known } = unknown;
  if (agent === undefined) {
    doc.reportUnknownKey(keyNode, key, known, `${where} has no key`, 'unknown-config-key', ': no agent reads it');
    return;
  }
  const owners = ownersOf(key);
  const elsewhere = owners.length ? `: it is a run key of ${owners.join(', ')}` : '';
  doc.reportUnknownKey(
    keyNode,
    key,
    known,
    `${where} (agent ${agent}) has no key`,
    'unknown-config-key',
    `${elsewhere}; ${agent} reads ${known.join(', ')}`,
  );
}

function checkRunKeyValue(doc: JsoncDocument, what: string, value: Node, key: AgentRunKey, checkModel: () => void): void {
  switch (key.type) {
    case 'model':
      return checkModel();
    case 'object':
      if (value.type !== 'object') doc.report(doc.rangeOf(value), `${what} must be an object.`);
      return;
    case 'strings': {
      const items = value.type === 'array' ? (value.children ?? []) : undefined;
      if (
        !items ||
        items.length > MAX_RUN_KEY_LIST ||
        items.some((item) => item.type !== 'string' || String(item.value).length > MAX_RUN_KEY_TEXT)
      ) {
        doc.report(
          doc.rangeOf(value),
          `${what} must be a list of at most ${MAX_RUN_KEY_LIST} strings, such as ["python3", "my_agent.py"].`,
        );
      }
      return;
    }
    case 'env-names':
      return checkEnvNames(doc, what, value);
    case 'env-values':
      return checkEnvValues(doc, what, value);
    case 'boolean':
      doc.expect(value, 'boolean', what);
      return;
    case 'string': {
      const text = doc.expect(value, 'string', what);
      if (text !== undefined && text.length > MAX_RUN_KEY_TEXT)
        doc.report(doc.rangeOf(value), `${what} is ${text.length} characters long; it may hold at most ${MAX_RUN_KEY_TEXT}.`);
      return;
    }
    case 'number':
    case 'integer': {
      const number = doc.expect(value, 'number', what);
      if (number === undefined) return;
      if (key.type === 'integer' && !Number.isInteger(number)) doc.report(doc.rangeOf(value), `${what} must be a whole number.`);
      else if ((key.minimum !== undefined && number < key.minimum) || (key.maximum !== undefined && number > key.maximum)) {
        doc.report(doc.rangeOf(value), `${what} must be from ${key.minimum ?? '-∞'} to ${key.maximum ?? '∞'}; it is ${number}.`);
      }
    }
  }
}

/** `env`: a list of variables' names and `PREFIX_*`, each refused at its own place. */
function checkEnvNames(doc: JsoncDocument, what: string, value: Node): void {
  const items = value.type === 'array' ? (value.children ?? []) : undefined;
  if (!items || items.length > MAX_ENV_ENTRIES) {
    doc.report(
      doc.rangeOf(value),
      `${what} must be a list of at most ${MAX_ENV_ENTRIES} variables' names or prefixes, such as ["OPENAI_API_KEY", "MY_AGENT_*"].`,
    );
    return;
  }
  for (const item of items) {
    if (item.type !== 'string' || typeof item.value !== 'string')
      doc.report(doc.rangeOf(item), `${what} holds names of variables as strings.`);
    else {
      const problem = envPatternProblem(item.value);
      if (problem) doc.report(doc.rangeOf(item), `${what}: ${shownName(item.value)}: ${problem}.`);
    }
  }
}

/** `env_set`: variables set to plain strings; a credential in it is reported by `reportCredentials`. */
function checkEnvValues(doc: JsoncDocument, what: string, value: Node): void {
  const props = JsoncDocument.properties(value);
  if (value.type !== 'object' || props.size > MAX_ENV_ENTRIES) {
    doc.report(
      doc.rangeOf(value),
      `${what} must be an object of at most ${MAX_ENV_ENTRIES} variables set to strings, such as { "MY_AGENT_MODE": "quiet" }.`,
    );
    return;
  }
  for (const [name, { key, value: setting }] of props) {
    const nameProblem = envNameProblem(name);
    if (nameProblem) doc.report(doc.rangeOf(key), `${what}: ${shownName(name)}: ${nameProblem}.`);
    if (setting.type !== 'string' || typeof setting.value !== 'string')
      doc.report(doc.rangeOf(setting), `${what}: ${shownName(name)} must be set to a string.`);
    else {
      const valueProblem = envValueProblem(setting.value);
      if (valueProblem) doc.report(doc.rangeOf(setting), `${what}: ${shownName(name)}: ${valueProblem}.`);
    }
  }
}
