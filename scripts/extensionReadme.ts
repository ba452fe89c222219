/**
 * The README of the packaged extension (`npm run package` writes it to dist/extension-readme.md and hands it to vsce
 * with --readme-path). VS Code's extension page draws images only from http(s) URLs (its sanitizer drops data: and
 * relative ones) and follows only http, https and mailto links, and this project has no web address: so the
 * screenshots are left out and relative links become their text. It is the README's opening paragraph, then
 * docs/extension.md, then where the other documentation is: the docs ship in the extension's folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const EXTENSION_README_PATH = 'dist/extension-readme.md';

/** The documents the closing section names, as they sit in the extension's folder (package.json's `files`). */
const FURTHER_READING: readonly [string, string][] = [
  ['docs/commands.md', 'the command line, `mmb`: runs, reports, CI, checks'],
  ['benchmarks/AUTHORING.md', 'writing a benchmark'],
  ['docs/format.md', 'every line and key of the format'],
  ['docs/agents.md', 'the agents, and bringing your own'],
  ['docs/engine.md', 'what a run does, its files and its report'],
  ['docs/grading.md', 'how far to trust the grades'],
];

/** The first paragraph after the README's title: what the project is. */
function openingParagraph(readme: string): string {
  const paragraphs = readme.split(/\n\n+/);
  const paragraph = paragraphs[1];
  if (paragraphs[0]?.startsWith('# ') !== true || paragraph === undefined)
    throw new Error('README.md: no title and paragraph to open with');
  return paragraph;
}

const IMAGE = /!\[[^\]]*\]\([^)\s]+\)/g;
const LINK = /\[([^\]]+)\]\(([^)\s]+)\)/g;

/** A markdown text without its images (a line that held only one goes whole), its relative links made their text. */
function selfContained(markdown: string): string {
  const withoutImages = markdown
    .split('\n')
    .filter((line) => line.replace(IMAGE, '').trim() !== '' || line.trim() === '')
    .join('\n')
    .replace(IMAGE, '')
    .replace(/\n{3,}/g, '\n\n');
  return withoutImages.replace(LINK, (whole, text: string, target: string) => (/^([a-z][\w+.-]*:|#)/i.test(target) ? whole : text));
}

/** The extension's README, from the repository at `root`. */
export function extensionReadme(root: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const extension = readFileSync(join(root, 'docs', 'extension.md'), 'utf8');
  const body = extension.slice(extension.indexOf('\n') + 1).trim();
  const further = FURTHER_READING.map(([path, what]) => `- \`${path}\`: ${what}`).join('\n');
  return [
    '# MarathonMemBench',
    selfContained(openingParagraph(readme)),
    selfContained(body),
    '## Further reading',
    `The rest of the documentation is in the extension's folder:\n\n${further}`,
  ].join('\n\n');
}

if (require.main === module) {
  const root = join(__dirname, '..');
  writeFileSync(join(root, EXTENSION_README_PATH), `${extensionReadme(root)}\n`);
  process.stdout.write(`wrote ${EXTENSION_README_PATH}\n`);
}
