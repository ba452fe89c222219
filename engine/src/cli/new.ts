/** `mmb new <name>`: a benchmark folder to start from, with every part of the format, that checks clean. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UsageError } from '../errors';

const files = (name: string): Record<string, string> => ({
  'benchmark.json': `{\n  "title": "${name}",\n  "chapters": ["chapter1.md", "chapter2.md", "chapter3.md"]\n}\n`,
  'README.md': `# ${name}\n\nWhat this benchmark tests, in two or three sentences. See benchmarks/AUTHORING.md for the rules (\`mmb init\` puts it there).\n`,
  'instructions.md':
    'You are Jo, 30, a nurse in Glasgow, talking to your personal assistant in short, friendly\nmessages, a fact or two at a time. You never read out fact ids, and you quiz the assistant only\nwhen a phase tells you to.\n',
  'profile.md': '# Jo\n\n## 1. About me\n1.1 Jo Reid, 30, a nurse at a Glasgow hospital\n1.2 Lives with a flatmate, Sam\n',
  'garden.md':
    '# Allotment\n\n## 1. The plot\n1.1 The allotment is plot 14, rented for £60 a year\n1.2 Tomatoes and courgettes are planted this year\n\n## 2. Plans\n2.1 A shed is planned for May, budget £250\n',
  'chapter1.md':
    '# Chapter 1: getting acquainted\n\n## Introduction\nIntroduce yourself: tell the `profile` sheet naturally.\n\n## The allotment\n```js\nvars.require_all_facts = "garden";\n```\nTell the `garden` sheet; ask the assistant to keep track of the allotment.\n',
  'chapter2.md':
    '# Chapter 2: a change of plan\n\n## The shed\nSay the shed is off: a neighbour is giving you his old one for free. Update `garden` fact 2.1\nto "A neighbour\'s old shed, free, arriving in May".\n\n🪤 RECONSIDER garden#2.1 → 3.2, 3.3 — the £250 shed is no longer bought\n',
  'chapter3.md':
    "# Chapter 3: the exam\n\n## Exam\n```js\nawait bench.newSession();\n```\nSay you want to check what the assistant remembers, then ask one question at a time.\n\n❓ 3.1 [RECALL] Which plot is my allotment? Correct answer: plot 14.\n❓ 3.2 [RECALL] Where is my shed coming from? Correct answer: a neighbour's old one, free.\n❓ 3.3 [HIST] What was the budget for the shed before the plan changed? Correct answer: £250.\n❓ 3.4 [VOID] How much water does the allotment use a week? Correct answer: you never told me.\n",
});

export function newCommand(name: string | undefined, cwd: string, out: (s: string) => void): number {
  if (!name) throw new UsageError('mmb new needs a name: mmb new my-benchmark');
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new UsageError(`"${name}" cannot name a benchmark folder: use lower-case letters, digits and "-".`);
  const dir = join(cwd, 'benchmarks', name);
  if (existsSync(dir)) throw new UsageError(`${relative(cwd, dir)} exists already; pick another name.`);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files(name))) writeFileSync(join(dir, file), text);
  out(
    `Created ${relative(cwd, dir)}: three chapters, a profile and one sheet, a trap and four checks.\nNext: edit it, then \`mmb check ${relative(cwd, dir)}\`; rehearse it with a run whose persona and agent are "stand-in".\n`,
  );
  return 0;
}
