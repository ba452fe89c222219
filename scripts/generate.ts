/** A generated benchmark of any size, valid and shaped like a real one, for the benches. */
export function generate(chapters: number): Map<string, string> {
  const files = new Map<string, string>();
  const names = Array.from({ length: chapters }, (_, i) => `chapter${i + 1}.md`);
  files.set('benchmark.json', JSON.stringify({ title: 'generated', chapters: names }, null, 2));
  files.set('instructions.md', 'You are Max Becker, 34, a backend developer in Batumi.\n');
  const sheets = Math.max(2, Math.ceil(chapters / 4));
  for (let s = 0; s < sheets; s++) {
    const lines = [`# Sheet ${s}`, ''];
    for (let c = 1; c <= 4; c++) {
      lines.push(`## ${c}. Topic ${c}`);
      for (let f = 1; f <= 5; f++) lines.push(`${c}.${f} Fact ${f} of topic ${c}: the price is $${100 * c + f}, agreed on Tuesday`);
      lines.push('');
    }
    files.set(`sheet${s}.md`, lines.join('\n'));
  }
  names.forEach((name, i) => {
    const n = i + 1;
    const sheet = `sheet${i % sheets}`;
    const later = Math.min(chapters, n + 3);
    files.set(
      name,
      `# Chapter ${n}

Author's notes on chapter ${n}: what it tests and why.

## Opening
\`\`\`js
vars.require_all_facts = "${sheet}";
bench.log("chapter ${n}");
\`\`\`
Say that you want to go over topic ${n}. Tell the \`${sheet}\` sheet, a fact or two per message,
and answer the assistant's questions. Mention that the delivery comes {{FUTURE:${(n % 9) + 1}:days}}.

## A change of mind
Update ${sheet}#1.2 and ${sheet}#2.3: the price went up by $15. Say it casually, as an aside.
🪤 RECONSIDER ${sheet}#1.2 ${sheet}#2.3 → ${later}.2 — the price went up

## Small talk
Chat about the weather in Batumi and the sea; nothing needs to be recorded. Ask the assistant
for a film recommendation and argue with it a little.

## Check
❓ ${n}.1 [RECALL] What is fact 1.1 of topic ${n}? Correct answer: $101.
❓ ${n}.2 [AGG] What do facts 1.2 and 2.3 cost together now?
     Correct answer: $345.
`,
    );
  });
  return files;
}
