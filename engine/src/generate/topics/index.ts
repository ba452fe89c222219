/**
 * The topic library of generated worlds, in a fixed order: a spec that asks for N topics gets the
 * first N, so the order is part of every generated world's identity (reordering changes worlds).
 */
import type { TopicModel } from '../model';
import { CAR } from './car';
import { HEALTH } from './health';
import { RENOVATION } from './renovation';
import { RUNNING } from './running';

export const TOPICS: readonly TopicModel[] = [HEALTH, RUNNING, RENOVATION, CAR];
