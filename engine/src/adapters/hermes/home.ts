/**
 * Hermes's `$HERMES_HOME` on disk: its config.yaml (written whole for a gateway the adapter
 * starts; only the `compression:` keys merged into a user's) and the full reset by files. What
 * its `logs/agent.log` says is agentLog.ts.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../errors';
import type { HermesCompression, HermesManaged } from './options';

/** The environment variable the gateway's config names for its model's key (`${…}`), so the key is never written to disk. */
export const MODEL_KEY_VARIABLE = 'MMB_HERMES_MODEL_KEY';
/** What a full reset deletes: sessions, their database, memory, skills and logs (the config stays). */
export const RESET_ENTRIES = [
  'state.db',
  'state.db-shm',
  'state.db-wal',
  'response_store.db',
  'response_store.db-shm',
  'response_store.db-wal',
  'memories',
  'sessions',
  'skills',
  'logs',
];
const MAX_CONFIG_BYTES = 1024 * 1024;

/** A YAML scalar: JSON's quoting is valid YAML for strings, numbers and booleans. */
const scalar = (value: string | number | boolean): string => JSON.stringify(value);

function compressionLines(compression: HermesCompression): string[] {
  return Object.entries(compression)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `  ${key}: ${scalar(value as number | boolean)}`);
}

/**
 * The whole config of a gateway the adapter starts: its model (the key read from the
 * environment), no lazy installs, only the memory and session-search tools on the API server.
 */
export function managedConfig(managed: HermesManaged, compression: HermesCompression): string {
  const lines = [
    '# Written by MarathonMemBench for this run; rewritten at every start.',
    'model:',
    '  provider: custom',
    `  default: ${scalar(managed.model.name)}`,
    `  base_url: ${scalar(managed.model.baseUrl)}`,
    `  api_key: \${${MODEL_KEY_VARIABLE}}`,
    `  context_length: ${managed.model.contextLength}`,
    'security:',
    '  allow_lazy_installs: false',
    'platform_toolsets:',
    '  api_server: [memory, session_search]',
  ];
  const kept = compressionLines(compression);
  if (kept.length) lines.push('compression:', ...kept);
  return `${lines.join('\n')}\n`;
}

/**
 * `text` (a user's config.yaml) with the given compression keys set in its top-level
 * `compression:` block; every other line, including the block's other keys, is kept.
 */
export function mergeCompression(text: string, compression: HermesCompression): string {
  const ours = Object.keys(compression).filter((key) => compression[key as keyof HermesCompression] !== undefined);
  if (!ours.length) return text;
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^compression:\s*(#.*)?$/.test(line));
  if (start < 0) {
    if (lines.some((line) => /^compression:/.test(line)))
      throw new ConfigError(
        "its config.yaml writes `compression:` on one line: write it as a block (one key a line) so that the run's keys can be merged in.",
      );
    const body = text.replace(/\n*$/, '');
    return `${body}${body ? '\n' : ''}compression:\n${compressionLines(compression).join('\n')}\n`;
  }
  let end = start + 1;
  while (end < lines.length && /^(\s|$)/.test(lines[end] ?? '')) end++;
  while (end > start + 1 && (lines[end - 1] ?? '').trim() === '') end--;
  const block = lines
    .slice(start + 1, end)
    .filter((line) => line.trim() !== '' && !ours.some((key) => new RegExp(`^\\s+${key}\\s*:`).test(line)));
  return [...lines.slice(0, start + 1), ...block, ...compressionLines(compression), ...lines.slice(end)].join('\n');
}

/** Merges the run's compression keys into the config.yaml of a home the user keeps. */
export function writeCompressionInto(home: string, compression: HermesCompression): void {
  const path = join(home, 'config.yaml');
  const old = existsSync(path) ? readBounded(path, MAX_CONFIG_BYTES) : '';
  const merged = mergeCompression(old, compression);
  if (merged === old) return;
  mkdirSync(home, { recursive: true });
  writeFileSync(path, merged);
}

/** The full reset of a home: everything Hermes learnt goes, its config stays. */
export function resetHome(home: string): void {
  for (const entry of RESET_ENTRIES) rmSync(join(home, entry), { recursive: true, force: true });
}

/** A config file's text; one too large to be a config is refused rather than rewritten. */
function readBounded(path: string, bytes: number): string {
  if (statSync(path).size > bytes) throw new ConfigError(`${path} is over ${bytes} bytes: it cannot be Hermes's config.yaml.`);
  return readFileSync(path, 'utf8');
}
