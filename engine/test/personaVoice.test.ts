/** The stand-in persona's voice: phase instructions become first-person chat, facts her own sentences, in order. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { loadBenchmark } from '../../scenario/src';
import { factsMessage, factSentence, firstPerson } from '../src/standin/firstPerson';
import { phaseParts } from '../src/standin/phaseParts';
import { voiceTalk } from '../src/standin/personaVoice';
import { swapsOf } from '../src/standin/sheetEdits';
import { readBenchmarkFolder } from '../src/workspace/folders';
import { ROOT, runOnStandIn, starter } from './helpers';

const voice = (text: string) => voiceTalk(text, swapsOf(text));

test('instructions are said in her voice; directions to her are followed, not said', () => {
  assert.deepEqual(voice('Say that the survey is over and ask the state of every room, one at a time.'), [
    { say: 'The survey is over.' },
    { say: 'Let me ask you about the state of every room.' },
  ]);
  assert.deepEqual(voice('Mention that you are moving soon and will need help keeping track of it.'), [
    { say: 'I am moving soon and will need help keeping track of it.' },
  ]);
  assert.deepEqual(
    voice(
      'Tell the `move` sheet: first the flat, then the movers. ' +
        'Ask the assistant to keep a note of the move, since you will come back to it.',
    ),
    [{ tell: 'move' }, { say: 'Please keep a note of the move, since I will come back to it.' }],
  );
  assert.deepEqual(
    voice(
      "Back to the renovation: tell the `kitchen` sheet. For the backsplash say only that it's the same tile as in the bathroom: " +
        "never say its price aloud, and don't ask the assistant to look it up.",
    ),
    [{ say: 'Back to the renovation.' }, { tell: 'kitchen' }, { say: "For the backsplash: it's the same tile as in the bathroom." }],
  );
  assert.deepEqual(voice('Ask whether the balloon is still worth it, and check the price with the assistant:'), [
    { ask: 'Do you think the balloon is still worth it?' },
  ]);
  assert.deepEqual(voice('Introduce yourself to the assistant: tell the `profile` sheet in a natural way, a fact or two per message.'), [
    { say: 'Hi! Let me introduce myself.' },
    { tell: 'profile' },
  ]);
  assert.deepEqual(voice('a day out in the Brecon Beacons with Tom, no signal all day: send nothing today.'), []);
});

test('a sheet edit in prose is made, never said; the phase carries its pretext', () => {
  const text = "Say you misread the agent's email: the keys are handed over at 11:00, not 10:00. Update\n`move` fact 1.3 accordingly.";
  assert.deepEqual(voice(text), [
    { say: "I misread the agent's email: the keys are handed over at 11:00, not 10:00." },
    { edits: [{ kind: 'replace', sheet: 'move', id: '1.3', swaps: [{ from: '10:00', to: '11:00' }] }] },
  ]);
});

test('second person becomes first, the assistant "you"; facts are her own sentences, lists framed by their category', () => {
  assert.equal(firstPerson('the GP asked you to watch your blood pressure'), 'the GP asked me to watch my blood pressure');
  assert.equal(firstPerson('the TV goes on the low stand you already have'), 'the TV goes on the low stand I already have');
  assert.equal(firstPerson('check what the assistant remembers'), 'check what you remember');
  assert.equal(factSentence('Lives in Clifton with her partner, Tom').sentence, 'I live in Clifton with my partner, Tom.');
  assert.equal(factSentence('Sam Okafor, 29, teaches chemistry in Leeds').sentence, "I'm Sam Okafor, 29; I teach chemistry in Leeds.");
  assert.equal(
    factSentence('Nora Hale, 32, a marketer at a Bristol agency').sentence,
    "I'm Nora Hale, 32, a marketer at a Bristol agency.",
  );
  assert.equal(
    factSentence('Goes to the office on Tuesdays, works from home the other days').sentence,
    'I go to the office on Tuesdays, I work from home the other days.',
  );
  assert.equal(
    factsMessage([
      { text: 'Toyota RAV4, 2019 hybrid, $24,000', category: 'Candidates' },
      { text: 'Honda CR-V, 2018, $21,500', category: 'Candidates' },
      { text: 'Lena is 31, a UX designer', category: 'Lena' },
    ]),
    'For the candidates: Toyota RAV4, 2019 hybrid, $24,000. Honda CR-V, 2018, $21,500. Lena is 31, a UX designer.',
  );
});

test("a phase's parts keep their order: Day 12 asks its check before the correction", () => {
  const parts = phaseParts(
    "2026-03-12, Thu\n09:05 — rest day. Bring up Wednesday's run — test its memory:\n\n" +
      '❓ 12.1 How far did I run on Wednesday? Correct answer: 8 km.\n\n' +
      'After the answer correct yourself: "the app finally synced overnight — it was actually 8.4 km,\nnot 8"; ask it to correct the log.',
  );
  assert.deepEqual(
    parts.map((part) => ('check' in part ? `check ${part.check.id}` : `talk ${part.until ?? '-'}`)),
    ['talk 2026-03-12 09:05', 'check 12.1', 'talk -'],
  );
});

test('the starter, played: every message in her words, in order', async () => {
  const { state } = await runOnStandIn(starter(), { ignoreSessionBreak: true });
  assert.deepEqual(
    state.transcript.filter((entry) => entry.from === 'persona').map((entry) => entry.text),
    [
      'Hi! Let me introduce myself.',
      "I'm Sam Okafor, 29; I teach chemistry at a secondary school in Leeds. " +
        'I live with a partner, Priya, a nurse who works night shifts. ' +
        'I have a dog, Pepper, a four-year-old beagle.',
      'I am moving soon and will need help keeping track of it.',
      'The new flat is on Harehills Lane, second floor, two bedrooms. Rent is £950 a month, bills not included. ' +
        "The keys are handed over on the 14th, at 10:00, at the letting agent's office.",
      'The movers are "Two Lads & A Van", quoted £380 for the whole day. They bring 20 boxes; more cost £2 each.',
      'Please keep a note of the move, since I will come back to it.',
      'About Pepper: she has started chewing cardboard boxes, which worries me for the move.',
      'Any tips?',
      'I have second thoughts about the movers: a colleague recommended "Leeds Lift", who quoted £340 for the day. I book them instead.',
      "I misread the agent's email: the keys are handed over at 11:00, not 10:00.",
      'I would like to check how well you kept track of the move.',
      'When and where do I pick up the keys to the new flat?',
      'Which movers did we book, and for how much?',
      'What did the first movers quote before I changed my mind?',
      'What will the flat and the movers cost us in the first month, rent plus movers?',
      'What is the deposit on the new flat?',
    ],
  );
  assert.equal(state.sheets.move?.facts.find((fact) => fact.id === '2.1')?.text, 'The movers are Leeds Lift, £340 for the day');
});

test('multiday Day 12: the check is asked first, then she corrects herself as a person does; Day 8 sends nothing', async () => {
  const benchmark = loadBenchmark(readBenchmarkFolder(join(ROOT, 'benchmarks', 'multiday')));
  const fast = { timeMaster: { minSleepToSkipMs: 0, preWakeDelayMs: 0, pollIntervalMs: 1 } };
  const { state } = await runOnStandIn(benchmark, { ignoreSessionBreak: true, extra: fast });
  const said = state.transcript.filter((entry) => entry.from === 'persona').map((entry) => entry.text);
  const asked = said.indexOf('How far did I run on Wednesday?');
  const correction = said.indexOf(
    "Oh wait, about Wednesday's run: the app finally synced overnight — it was actually 8.4 km, not 8. Please correct the log.",
  );
  assert.ok(asked >= 0 && correction > asked, said.slice(asked - 1, asked + 4).join(' | '));
  assert.equal(said.filter((text) => /Brecon Beacons with Tom|no signal all day: send/i.test(text)).length, 0, 'Day 8 says nothing');
});
