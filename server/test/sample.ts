/** The benchmark most feature tests ask about, in the folder `/b`, with each chapter line's index beside it. */
import { folder } from './harness';

export const SAMPLE_DIR = '/b';
export const inSample = (file: string) => `${SAMPLE_DIR}/${file}`;
export const pos = (line: number, character: number) => ({ line, character });

/** The sample's family sheet, whole and valid: tests that break it on disk write it back from here. */
export const FAMILY_SHEET = [
  '# Family',
  '',
  '## 1. Lena',
  '1.1 Lena is 31, a UX designer',
  "1.2 Lena's birthday — March 14",
  '',
  '## 2. Anna',
  '2.1 Sister, 37, a doctor in Hamburg',
  '',
].join('\n');

export const SAMPLE_FILES: Record<string, string> = folder(SAMPLE_DIR, {
  'benchmark.json': '{ "chapters": ["chapter1.md", "chapter2.md"], "start_time": "2026-07-29 16:10" }',
  'instructions.md': 'You are Max.',
  'family.md': FAMILY_SHEET,
  'car.md': '# Car\n\n## 1. Costs\n1.1 Insurance $400 a year\n',
  'chapter1.md': [
    '# Chapter 1', //                                           0
    '', //                                                      1
    '## Family', //                                             2
    '```js', //                                                 3
    'vars.require_all_facts = "family";', //                    4
    'bench.', //                                                5
    '```', //                                                   6
    'Tell the `family` sheet and the `car` sheet. Anna visits {{FUTURE:3:weeks}}.', // 7
    '🪤 RECONSIDER car#1.1 → 20.1 — insurance went up', //      8
    '', //                                                      9
    '## Edit', //                                               10
    'See family#1.2 and family#', //                             11
    '🪤 ', //                                                   12
    '🪤 STALE family#2.1 → ', //                                13
  ].join('\n'),
  'chapter2.md': [
    '## Exam', //                                               0
    '```js', //                                                 1
    'await bench.newSession();', //                             2
    '```', //                                                   3
    '❓ 20.1 [HIST] How much was the insurance first? Correct answer: $400.', // 4
    '❓ 20.2 [', //                                              5
    '❓ ', //                                                   6
  ].join('\n'),
});
