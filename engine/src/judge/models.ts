/**
 * Judges by name, as `--judge` gives them: `persona` (config.jsonc's persona model, the default),
 * `stand-in` or `stand-in:chaos?…`, or a key of config.jsonc's `judges`. The stand-in is served over
 * real HTTP for the time the judges are open, so a judge on it goes the way a real model's does.
 */
import type { Config, ModelConfig } from '../../../scenario/src';
import { didYouMeanSentence } from '../didYouMean';
import { ConfigError } from '../errors';
import { createModel, isStandInModel } from '../models/resolve';
import { startStandIn, type StandIn } from '../standin/server';
import { modelJudge, type Judge } from './judge';

/** The name that means config.jsonc's persona model. */
export const PERSONA_JUDGE = 'persona';

export interface OpenJudges {
  judges: Judge[];
  close(): Promise<void>;
}

/**
 * The model a judge's name stands for; a name that stands for none is one line, with the names there
 * are, opening with how it was asked for (`--judge`, or `mmb doctor`, which names models the same way).
 */
export function judgeModel(name: string, config: Config, askedBy = '--judge'): ModelConfig {
  if (name === PERSONA_JUDGE) return config.persona;
  if (isStandInModel(name)) return { model: name };
  if (Object.hasOwn(config.judges, name)) return config.judges[name]!;
  const names = [PERSONA_JUDGE, 'stand-in', ...Object.keys(config.judges)];
  throw new ConfigError(
    `${askedBy} ${JSON.stringify(name.slice(0, 120))}: no such judge; the judges are ${names.join(', ')} ` +
      `(add one under "judges" in config.jsonc).${didYouMeanSentence(name, names)}`,
  );
}

/**
 * The judges named, in order (`persona` when none is); the stand-in started if one of them needs it.
 * `signal` (Ctrl-C) cuts a judge's request in flight: it rejects with RunStopped at once.
 */
export async function openJudges(
  names: readonly string[],
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
): Promise<OpenJudges> {
  const wanted = names.length ? names : [PERSONA_JUDGE];
  const models = wanted.map((name) => ({ name, model: judgeModel(name, config) }));
  const standIn: StandIn | undefined = models.some(({ model }) => isStandInModel(model.model)) ? await startStandIn() : undefined;
  try {
    const context = { env, ...(standIn ? { standInUrl: standIn.url } : {}), ...(signal ? { signal } : {}) };
    const judges = models.map(({ name, model }) => modelJudge(createModel(model, context, `judge ${name}`), name));
    return { judges, close: async () => standIn?.close() };
  } catch (error) {
    await standIn?.close();
    throw error;
  }
}
