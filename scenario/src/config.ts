/** `config.jsonc`: engine settings and the named runs of a workspace. */
import type { Node } from 'jsonc-parser';
import { configBomProblem } from './configText';
import { isCredentialKey, reportCredentials } from './credentials';
import { diagnostic, type Diagnostic } from './diagnostics';
import { didYouMeanText, nearNames } from './suggest';
import { JsoncDocument } from './jsonc';
import { checkRunKeys, SHARED_RUN_KEYS } from './runKeys';
import { comparePositions, lineRange, type Range } from './text';
import { shorten } from './plainText';

export interface ModelConfig {
  /** `stand-in` is the built-in deterministic model; anything else goes to `base_url`. */
  model: string;
  base_url?: string;
  /** The environment variable that holds the API key. The key itself never appears in files. */
  api_key_env?: string;
}

export interface RunConfig {
  name: string;
  benchmark: string;
  agent: string;
  ignore_session_break: boolean;
  /** Every other key of the run, passed to its agent adapter as is. */
  options: Record<string, unknown>;
  range: Range;
  benchmarkRange?: Range;
}

export interface Config {
  persona: ModelConfig;
  compaction: { max_tokens: number; trim_to_tokens: number };
  time_master: { min_sleep_to_skip: number; pre_wake_delay: number; poll_interval: number };
  hooks: { require_send_message: boolean; drop_echoed_user_messages: boolean };
  parallel: number;
  /** USD per million tokens by model name, for the report's cost estimate; adds to or overrides the built-in table. */
  prices: Record<string, { input: number; output: number }>;
  /** Named models `mmb judge audit`, `mmb regrade` and `mmb doctor` can be pointed at (`--judge <name>`). */
  judges: Record<string, ModelConfig>;
  runs: RunConfig[];
}

export const CONFIG_FILE = 'config.jsonc';

export const DEFAULT_CONFIG: Omit<Config, 'runs'> = {
  persona: { model: 'stand-in' },
  compaction: { max_tokens: 30000, trim_to_tokens: 10000 },
  time_master: { min_sleep_to_skip: 5, pre_wake_delay: 1, poll_interval: 1 },
  hooks: { require_send_message: true, drop_echoed_user_messages: true },
  parallel: 1,
  prices: {},
  judges: {},
};

const TOP_KEYS = ['persona', 'compaction', 'time_master', 'hooks', 'parallel', 'prices', 'judges', 'runs', '$schema'];
const MODEL_KEYS = ['model', 'base_url', 'api_key_env'];
/** Longer names make paths that file systems refuse (a partial run adds its phase to the name). */
export const MAX_NAME_LENGTH = 100;

/** Parses config.jsonc, filling defaults; never throws. */
export function parseConfig(text: string, file = CONFIG_FILE): { config: Config; diagnostics: Diagnostic[] } {
  // One byte order mark is how some editors save UTF-8; a second is damage, and is refused before anything reads on.
  const bomProblem = configBomProblem(text, file);
  if (bomProblem) {
    return { config: { ...DEFAULT_CONFIG, runs: [] }, diagnostics: [diagnostic('invalid-config', file, lineRange(0, 0, 0), bomProblem)] };
  }
  const doc = new JsoncDocument(text, file, 'invalid-config');
  const top = JsoncDocument.properties(doc.root);
  doc.reportDuplicateKeys();
  reportCredentials(doc);
  doc.unknownKeys(doc.root, [...TOP_KEYS, ...[...top.keys()].filter(isCredentialKey)], file, 'unknown-config-key');

  const config: Config = {
    persona: parseModel(doc, top.get('persona')?.value, 'persona') ?? DEFAULT_CONFIG.persona,
    compaction: parseNumbers(doc, 'compaction', DEFAULT_CONFIG.compaction, top.get('compaction')?.value),
    time_master: parseNumbers(doc, 'time_master', DEFAULT_CONFIG.time_master, top.get('time_master')?.value),
    hooks: parseFlags(doc, 'hooks', DEFAULT_CONFIG.hooks, top.get('hooks')?.value),
    parallel: DEFAULT_CONFIG.parallel,
    prices: {},
    judges: {},
    runs: [],
  };
  if (config.compaction.trim_to_tokens >= config.compaction.max_tokens) {
    doc.report(doc.rangeOf(top.get('compaction')?.value), '`compaction.trim_to_tokens` must be smaller than `compaction.max_tokens`.');
  }
  const parallelNode = top.get('parallel')?.value;
  const parallel = doc.expect(parallelNode, 'number', '`parallel`');
  if (parallel !== undefined) {
    if (Number.isInteger(parallel) && parallel >= 1) config.parallel = parallel;
    else doc.report(doc.rangeOf(parallelNode), '`parallel` must be a whole number of at least 1.');
  }

  parsePrices(doc, top.get('prices')?.value, config.prices);
  parseJudges(doc, top.get('judges')?.value, config.judges);

  const runsNode = top.get('runs')?.value;
  if (runsNode && runsNode.type !== 'object')
    doc.report(
      doc.rangeOf(runsNode),
      '`runs` must be an object of named runs: "runs": { "my-run": { "benchmark": "max", "agent": "chatbot" } }.',
    );
  for (const [name, { key, value }] of JsoncDocument.properties(runsNode)) {
    const run = parseRun(doc, name, key, value);
    if (run) config.runs.push(run);
  }
  doc.diagnostics.sort((a, b) => comparePositions(a.range.start, b.range.start));
  return { config, diagnostics: doc.diagnostics };
}

/** An object of non-negative numbers with defaults, such as `compaction`; a wrong or negative value keeps the default. */
function parseNumbers<K extends string>(
  doc: JsoncDocument,
  key: string,
  defaults: Record<K, number>,
  node: Node | undefined,
): Record<K, number> {
  const out = { ...defaults };
  if (!node) return out;
  if (node.type !== 'object') {
    doc.report(doc.rangeOf(node), `\`${key}\` must be an object.`);
    return out;
  }
  doc.unknownKeys(node, Object.keys(defaults), `\`${key}\``, 'unknown-config-key');
  const props = JsoncDocument.properties(node);
  for (const name of Object.keys(defaults) as K[]) {
    const value = doc.expect(props.get(name)?.value, 'number', `\`${key}.${name}\``);
    if (value === undefined) continue;
    if (value < 0) doc.report(doc.rangeOf(props.get(name)?.value), `\`${key}.${name}\` must not be negative.`);
    else out[name] = value;
  }
  return out;
}

/** An object of booleans with defaults, such as `hooks`. */
function parseFlags<K extends string>(
  doc: JsoncDocument,
  key: string,
  defaults: Record<K, boolean>,
  node: Node | undefined,
): Record<K, boolean> {
  const out = { ...defaults };
  if (!node) return out;
  doc.unknownKeys(node, Object.keys(defaults), `\`${key}\``, 'unknown-config-key');
  const props = JsoncDocument.properties(node);
  for (const name of Object.keys(defaults) as K[]) {
    const value = doc.expect(props.get(name)?.value, 'boolean', `\`${key}.${name}\``);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** `prices` by model name, each with both `input` and `output`; defined as own properties so a model named `__proto__` is data. */
function parsePrices(doc: JsoncDocument, pricesNode: Node | undefined, prices: Config['prices']): void {
  if (pricesNode && pricesNode.type !== 'object')
    doc.report(
      doc.rangeOf(pricesNode),
      '`prices` must be an object by model name: "prices": { "my-model": { "input": 0.3, "output": 1.2 } }, USD per million tokens.',
    );
  for (const [model, { key, value }] of JsoncDocument.properties(pricesNode)) {
    const given = JsoncDocument.properties(value);
    if (value.type === 'object' && (!given.has('input') || !given.has('output')))
      doc.report(doc.rangeOf(key), `\`prices.${model}\` needs both \`input\` and \`output\`, USD per million tokens.`);
    else
      Object.defineProperty(prices, model, {
        value: parseNumbers(doc, `prices.${model}`, { input: 0, output: 0 }, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
}

/** `judges` by name, each a model like `persona`; own properties, as for `prices`. */
function parseJudges(doc: JsoncDocument, judgesNode: Node | undefined, judges: Config['judges']): void {
  if (judgesNode && judgesNode.type !== 'object')
    doc.report(
      doc.rangeOf(judgesNode),
      '`judges` must be an object by name: "judges": { "mini": { "model": "gpt-4o-mini", "base_url": "…" } }.',
    );
  for (const [name, { value }] of JsoncDocument.properties(judgesNode)) {
    const model = parseModel(doc, value, `judges.${name}`);
    if (model) Object.defineProperty(judges, name, { value: model, enumerable: true, writable: true, configurable: true });
  }
}

function parseModel(doc: JsoncDocument, node: Node | undefined, where: string): ModelConfig | undefined {
  if (!node) return undefined;
  if (node.type !== 'object') {
    doc.report(doc.rangeOf(node), `\`${where}\` must be an object such as { "model": "stand-in" }.`);
    return undefined;
  }
  const props = JsoncDocument.properties(node);
  // Credentials are reported once, by reportCredentials, not again as unknown keys.
  doc.unknownKeys(node, [...MODEL_KEYS, ...[...props.keys()].filter(isCredentialKey)], `\`${where}\``, 'unknown-config-key');
  const model = doc.expect(props.get('model')?.value, 'string', `\`${where}.model\``);
  if (model === undefined) {
    if (!props.has('model'))
      doc.report(doc.rangeOf(node), `\`${where}\` needs a \`model\`: "stand-in" or the name your provider gives the model.`);
    return undefined;
  }
  const out: ModelConfig = { model };
  const base = doc.expect(props.get('base_url')?.value, 'string', `\`${where}.base_url\``);
  if (base !== undefined) out.base_url = base;
  const env = doc.expect(props.get('api_key_env')?.value, 'string', `\`${where}.api_key_env\``);
  if (env !== undefined) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) out.api_key_env = env;
    else
      doc.report(
        doc.rangeOf(props.get('api_key_env')?.value),
        `\`${where}.api_key_env\` names an environment variable (such as "OPENROUTER_API_KEY"), not the key itself.`,
      );
  }
  if (model !== 'stand-in' && !model.startsWith('stand-in:') && base === undefined) {
    doc.report(
      doc.rangeOf(props.get('model')?.value),
      `\`${where}\` uses model "${model}" but has no \`base_url\`: give the provider's OpenAI-compatible URL, or use "stand-in".`,
    );
  }
  return out;
}

/** A run's (or benchmark's) name becomes a folder under results/ or benchmarks/: no path in it, and a bounded length. */
export function isFolderName(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && /^[A-Za-z0-9][\w.-]*$/.test(name);
}

/** Why a name cannot be a folder name, as the end of a sentence; undefined when it can. */
export function folderNameProblem(name: string): string | undefined {
  if (isFolderName(name)) return undefined;
  if (name.length > MAX_NAME_LENGTH) return `it must be at most ${MAX_NAME_LENGTH} characters long (this one has ${name.length})`;
  return 'it may hold only letters, digits, `.`, `_` and `-`, starting with a letter or digit';
}

function parseRun(doc: JsoncDocument, name: string, key: Node, node: Node): RunConfig | undefined {
  const where = `run \`${name}\``;
  if (node.type !== 'object') {
    doc.report(doc.rangeOf(node), `${where} must be an object with \`benchmark\` and \`agent\`.`);
    return undefined;
  }
  const nameProblem = folderNameProblem(name);
  if (nameProblem) {
    doc.report(doc.rangeOf(key), `run \`${shorten(name, 40)}\`: a run name becomes a folder under results/, so ${nameProblem}.`);
    return undefined;
  }
  const props = JsoncDocument.properties(node);
  const benchmarkNode = props.get('benchmark')?.value;
  const benchmark = doc.expect(benchmarkNode, 'string', `${where}: \`benchmark\``);
  const agent = doc.expect(props.get('agent')?.value, 'string', `${where}: \`agent\``);
  checkRunKeys(doc, name, key, props, (model, modelWhere) => parseModel(doc, model, modelWhere));
  const benchmarkProblem = benchmark === undefined ? undefined : folderNameProblem(benchmark);
  if (benchmarkProblem) {
    doc.report(doc.rangeOf(benchmarkNode), `${where}: \`benchmark\` names a folder under benchmarks/, so ${benchmarkProblem}.`);
    return undefined;
  }
  const ignore = doc.expect(props.get('ignore_session_break')?.value, 'boolean', `${where}: \`ignore_session_break\``) ?? false;
  if (benchmark === undefined || agent === undefined) return undefined;
  // Own properties by Object.fromEntries: an assignment of a key `__proto__` would set the prototype.
  const options: Record<string, unknown> = Object.fromEntries(
    [...props].filter(([k]) => !(SHARED_RUN_KEYS as readonly string[]).includes(k)).map(([k, { value }]) => [k, plain(value)]),
  );
  const run: RunConfig = { name, benchmark, agent, ignore_session_break: ignore, options, range: doc.rangeOf(key) };
  if (benchmarkNode) run.benchmarkRange = doc.rangeOf(benchmarkNode);
  return run;
}

function plain(node: Node): unknown {
  switch (node.type) {
    case 'object':
      return Object.fromEntries([...JsoncDocument.properties(node)].map(([k, { value }]) => [k, plain(value)]));
    case 'array':
      return (node.children ?? []).map(plain);
    default:
      return node.value;
  }
}

/** A run that names a benchmark the workspace does not have, with the near one suggested. */
export function checkRunBenchmarks(config: Config, known: readonly string[], file = CONFIG_FILE): Diagnostic[] {
  return config.runs.flatMap((run) => {
    if (known.includes(run.benchmark) || !run.benchmarkRange) return [];
    const suggestions = nearNames(run.benchmark, known);
    return [
      diagnostic(
        'invalid-config',
        file,
        run.benchmarkRange,
        `Run \`${run.name}\` names benchmark "${run.benchmark}", ` +
          `but there is no benchmarks/${run.benchmark}/benchmark.json next to ${file}.${didYouMeanText(suggestions)}`,
        { suggestions: suggestions.map((s) => JSON.stringify(s)) },
      ),
    ];
  });
}
