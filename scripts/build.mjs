// One build for the three Node runtimes: the extension, the language server and the mmb CLI.
// Type-checking is separate (`npm run typecheck`); esbuild only bundles.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['vscode'],
  // jsonc-parser's UMD entry hides its modules from the bundler; its ESM entry does not.
  mainFields: ['module', 'main'],
  logLevel: 'warning',
};
// The CLI's heavy dependencies are files of their own beside cli.js, loaded on first use
// (engine/src/models/chunks/load.ts): in cli.js they would be compiled on every command, `mmb --help`
// included. Each `./X` that load.ts requires is `./chunk-X.js`.
const CHUNKS = ['tokenizer', 'openai', 'ws'];
const chunksApart = {
  name: 'chunks-apart',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\./(${CHUNKS.join('|')})$`) }, (args) =>
      args.importer.endsWith('chunks/load.ts') ? { path: `./chunk-${args.path.slice(2)}.js`, external: true } : undefined,
    );
  },
};
// mmb's entry answers --help and --version from the option table alone and loads the rest of the
// CLI, main.ts, only for a command: `./main` required by entry.ts is `./cli-main.js`.
const cliMainApart = {
  name: 'cli-main-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/main$/ }, (args) =>
      args.importer.endsWith('cli/entry.ts') ? { path: './cli-main.js', external: true } : undefined,
    );
  },
};
const entries = [
  { entryPoints: { extension: 'extension/src/extension.ts' } },
  { entryPoints: { server: 'server/src/server.ts' } },
  // The CLI's first line listens for Ctrl-C: while the bundle loads (about 0.3 s), before main.ts
  // has its handler, Node's default would end the process silently with 130.
  {
    entryPoints: { cli: 'engine/src/cli/entry.ts' },
    banner: { js: "#!/usr/bin/env node\nprocess.once('SIGINT', () => {});" },
    plugins: [cliMainApart],
  },
  { entryPoints: { 'cli-main': 'engine/src/cli/main.ts' }, plugins: [chunksApart] },
  ...CHUNKS.map((chunk) => ({ entryPoints: { [`chunk-${chunk}`]: `engine/src/models/chunks/${chunk}.ts` } })),
  // The JS block sandbox's worker thread, beside the CLI that starts it: QuickJS with its
  // WebAssembly inlined, kept out of cli.js.
  { entryPoints: { 'sandbox-worker': 'engine/src/persona/sandboxWorker.ts' } },
];

// Text the engine reads at run time, beside the bundle that reads it.
mkdirSync('dist', { recursive: true });
copyFileSync('engine/src/persona/system-prompt.md', 'dist/system-prompt.md');
// The charting library the HTML reports inline: the .vsix ships no node_modules.
copyFileSync('node_modules/chart.js/dist/chart.umd.min.js', 'dist/chart.umd.min.js');
for (const f of readdirSync('engine/src/adapters/notebook').filter((f) => f.endsWith('.md')))
  copyFileSync(`engine/src/adapters/notebook/${f}`, `dist/${f}`);

const contexts = await Promise.all(entries.map((e) => esbuild.context({ ...common, ...e, outdir: 'dist' })));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching extension, server, cli and sandbox-worker…');
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
}
