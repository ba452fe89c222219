/**
 * The filing-system experiment (seed article 000): a world of 24 rooms that drifts over 8 rounds,
 * observed 10 rooms a round, written out as a benchmark the platform runs like any other. Round 4
 * mis-records room-07 ("looked open" while it is locked) and never sees it again; round 5's log
 * holds the one event that contradicts the note. The quiz asks every room's state at the end.
 */
import { seededRandom } from '../random';

export const ROOMS = 24;
export const ROUNDS = 8;
export const DRIFTS = 6;
export const OBSERVATIONS = 10;
export const STATES = ['open', 'locked', 'flooded', 'dark', 'guarded', 'collapsed'] as const;
export type State = (typeof STATES)[number];
export const MISRECORDED = 'room-07';
/** The round that mis-records room-07, and what it records; its truth is then `locked`. */
export const MISRECORD_ROUND = 4;
export const MISRECORDED_AS: State = 'open';
export const DEFAULT_SEED = 1107;

export const room = (i: number) => `room-${String(i + 1).padStart(2, '0')}`;

export interface Round {
  drifts: { room: string; from: State; to: State }[];
  /** What the persona reports: the true state, except the round-4 mis-record. */
  observations: { room: string; said: string; truth: State; changedSinceSeen: boolean }[];
  events: string[];
}

export interface World {
  seed: number;
  rounds: Round[];
  /** Every room's state at the end: the quiz's correct answers. */
  final: Record<string, State>;
}

export function simulate(seed = DEFAULT_SEED): World {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  const rooms = Array.from({ length: ROOMS }, (_, i) => room(i));
  // Every room, room-07 too, starts in a random state and drifts like the others until round 4.
  const state: Record<string, State> = Object.fromEntries(rooms.map((r) => [r, pick(STATES)]));
  const seenAs: Record<string, State | undefined> = {};
  const rounds: Round[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const round: Round = { drifts: [], observations: [], events: [] };
    // From round 4 on room-07 leaves the random drifts: in round 4 it locks (a drift only if it
    // was not locked already), and after that nothing touches it or sees it again.
    const movable = r < MISRECORD_ROUND ? rooms : rooms.filter((x) => x !== MISRECORDED);
    const locksNow = r === MISRECORD_ROUND && state[MISRECORDED] !== 'locked';
    const drifting = shuffle([...movable]).slice(0, locksNow ? DRIFTS - 1 : DRIFTS);
    if (locksNow) drifting.push(MISRECORDED);
    for (const x of drifting) {
      const to = x === MISRECORDED && r === MISRECORD_ROUND ? 'locked' : pick(STATES.filter((s) => s !== state[x]));
      round.drifts.push({ room: x, from: state[x]!, to });
      state[x] = to;
    }
    // The agent walks past what changed since it last looked (in room order), then looks at rooms
    // it has never seen; in round 4 it looks at room-07 from the corridor and gets it wrong.
    const observable = r <= MISRECORD_ROUND ? rooms : rooms.filter((x) => x !== MISRECORDED);
    const changed = observable.filter((x) => seenAs[x] !== undefined && seenAs[x] !== state[x]);
    const unseen = shuffle(observable.filter((x) => seenAs[x] === undefined));
    const rest = shuffle(observable.filter((x) => !changed.includes(x) && !unseen.includes(x)));
    const chosen = [...new Set([...(r === MISRECORD_ROUND ? [MISRECORDED] : []), ...changed, ...unseen, ...rest])].slice(0, OBSERVATIONS);
    for (const x of chosen.sort()) {
      const misrecord = r === MISRECORD_ROUND && x === MISRECORDED;
      round.observations.push({
        room: x,
        said: misrecord ? `${x} looked ${MISRECORDED_AS} from the corridor` : `${x} is ${state[x]}`,
        truth: state[x]!,
        changedSinceSeen: seenAs[x] !== undefined && seenAs[x] !== state[x],
      });
      seenAs[x] = misrecord ? MISRECORDED_AS : state[x];
    }
    if (r === MISRECORD_ROUND + 1) round.events.push(`Tried ${MISRECORDED}'s door on the way past: it would not open.`);
    rounds.push(round);
  }
  return { seed, rounds, final: { ...state } };
}

const QUIZ_SERIES = 9;

/** The benchmark's files: a chapter a round, then the quiz after a session switch. */
export function filingBenchmark(world: World): Map<string, string> {
  const files = new Map<string, string>();
  const chapters = world.rounds.map((_, i) => `round${i + 1}.md`);
  const checkOf = (x: string) => `${QUIZ_SERIES}.${Number(x.slice(5))}`;
  files.set(
    'benchmark.json',
    `${JSON.stringify({ title: `Filing-system experiment (seed ${world.seed})`, chapters: [...chapters, 'quiz.md'] }, null, 2)}\n`,
  );
  files.set(
    'instructions.md',
    [
      'You are Ada, a surveyor walking the rooms of an old building round after round. After each',
      'round you report what you saw to your assistant, sentence by sentence, exactly as the phase',
      'words it: nothing added, nothing left out. At the end you ask it the state of every room.',
      '',
      `Generated by \`mmb experiment filing --seed ${world.seed}\`; edit the generator, not these files.`,
      '',
    ].join('\n'),
  );
  world.rounds.forEach((round, i) => {
    const lines = [
      `# Round ${i + 1}`,
      '',
      `Drifts this round (not told): ${round.drifts.map((d) => `${d.room} ${d.from} → ${d.to}`).join('; ')}.`,
      '',
    ];
    lines.push(`## Round ${i + 1} report`, 'Report exactly these observations:', '');
    for (const o of round.observations) lines.push(`${o.said}.`);
    for (const e of round.events) lines.push(e);
    lines.push('');
    for (const o of round.observations) {
      if (o.said.includes('looked'))
        lines.push(`🪤 STALE → ${checkOf(o.room)} — it looked open but is ${o.truth}; only round 5's log tells`);
      else if (o.changedSinceSeen && world.final[o.room] === o.truth)
        lines.push(`🪤 STALE → ${checkOf(o.room)} — ${o.room} changed since it was last seen`);
    }
    files.set(chapters[i]!, `${lines.join('\n').trimEnd()}\n`);
  });
  const quiz = [
    '# Quiz',
    '',
    '## The quiz',
    '```js',
    'await bench.newSession();',
    '```',
    'Say that the survey is over and ask the state of every room, one at a time.',
    '',
  ];
  for (let i = 0; i < ROOMS; i++)
    quiz.push(`❓ ${checkOf(room(i))} [RECALL] What is the state of ${room(i)} now? Correct answer: ${world.final[room(i)]}.`);
  files.set('quiz.md', `${quiz.join('\n')}\n`);
  files.set(
    'README.md',
    [
      `# Filing-system experiment (seed ${world.seed})`,
      '',
      'The toy world of the seed article "413 files, 1 badge": 24 rooms, 8 rounds, 6 drifts and 10',
      'observations a round; round 4 mis-records room-07, round 5 logs the event that contradicts it;',
      "a quiz asks every room's state at the end. Run it with the three built-in filing agents:",
      '',
      '```sh',
      `mmb experiment filing --seed ${world.seed}`,
      '```',
      '',
    ].join('\n'),
  );
  return files;
}
