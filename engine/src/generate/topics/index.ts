/**
 * The topic library of generated worlds, in a fixed order: a spec that asks for N topics gets the
 * first N, so the order is part of every generated world's identity (reordering changes worlds).
 * New topics go at the end.
 */
import type { TopicModel } from '../model';
import { BILLS } from './bills';
import { CAR } from './car';
import { COOKING } from './cooking';
import { COURSE } from './course';
import { FAMILY } from './family';
import { GARDEN } from './garden';
import { HEALTH } from './health';
import { PETS } from './pets';
import { RENOVATION } from './renovation';
import { RUNNING } from './running';
import { SAVINGS } from './savings';
import { SHOPPING } from './shopping';
import { TRIP } from './trip';
import { WORK } from './work';

export const TOPICS: readonly TopicModel[] = [
  HEALTH,
  RUNNING,
  RENOVATION,
  CAR,
  TRIP,
  FAMILY,
  WORK,
  PETS,
  BILLS,
  SHOPPING,
  COURSE,
  GARDEN,
  COOKING,
  SAVINGS,
];
