/**
 * The `mmb` command line itself, through the built CLI: help generated from the option table,
 * the version, `--opt=value`, unknown options with suggestions, errors on stderr (or as JSON for
 * `--json`), and absolute paths.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HANDLED_COMMANDS } from '../src/cli/main';
import { COMMANDS } from '../src/cli/options';
import { parseArguments } from '../src/cli/parseArguments';
import { CLI, ROOT, STARTER, tempDir, workspace, mmb } from './helpers';

/** The lines of a text, without the empty one after its last newline. */
const lines = (text: string) => text.replace(/\n$/, '').split('\n');

test("every command's --help, -h and `mmb help <command>` print the same help on stdout, naming every option of the table", () => {
  const dir = tempDir('mmb-help-');
  for (const command of COMMANDS) {
    const help = mmb([command.name, '--help'], dir);
    assert.equal(help.code, 0, `${command.name}: ${help.stderr}`);
    assert.equal(help.stderr, '', command.name);
    assert.equal(mmb([command.name, '-h'], dir).stdout, help.stdout, `${command.name} -h`);
    assert.equal(mmb(['help', command.name], dir).stdout, help.stdout, `help ${command.name}`);
    assert.ok(help.stdout.startsWith(`Usage: mmb ${`${command.name} ${command.synopsis}`.trimEnd()}`), help.stdout);
    assert.ok(help.stdout.includes(`${command.help.charAt(0).toUpperCase()}${command.help.slice(1)}.`), `${command.name}: its help line`);
    assert.ok(
      lines(help.stdout)
        .filter((line) => line.startsWith('  '))
        .every((line) => line.length <= 110),
      `${command.name}: a long option help wraps at 110 columns`,
    );
    // A long help wraps under its own column: joined again, each option's help is whole on its line.
    const unwrapped = help.stdout.replace(/\n {8,}(?=\S)/g, ' ');
    for (const option of command.options) {
      const shown = [option.alias ? `${option.alias}, ${option.name}` : option.name, option.value, option.words].filter(Boolean).join(' ');
      assert.match(unwrapped, new RegExp(`^ {2}${escaped(shown)} +${escaped(option.help)}$`, 'm'), `${command.name} ${option.name}`);
    }
    for (const exit of command.exits ?? [{ code: 0 }, { code: 2 }])
      assert.match(help.stdout, new RegExp(`^ {2}${exit.code} +\\S`, 'm'), `${command.name} exit ${exit.code}`);
  }
  // Help wins over the rest of the line: nothing runs, nothing is created.
  const scaffold = mmb(['new', 'x', '--help'], dir);
  assert.equal(scaffold.code, 0);
  assert.equal(mmb(['check', 'benchmarks/x'], dir).code, 2, 'mmb new --help created no benchmark');
});

test('mmb --help lists every command; mmb alone prints the usage on stderr and exits 2', () => {
  const dir = tempDir('mmb-help-');
  const help = mmb(['--help'], dir);
  assert.equal(help.code, 0);
  for (const command of COMMANDS) assert.match(help.stdout, new RegExp(`^ {2}${escaped(command.name)}\\b`, 'm'), command.name);
  assert.equal(mmb(['help'], dir).stdout, help.stdout);
  assert.equal(mmb(['-h'], dir).stdout, help.stdout);
  const bare = mmb([], dir);
  assert.equal(bare.code, 2);
  assert.equal(bare.stdout, '');
  assert.equal(bare.stderr, help.stdout);
  const unknown = mmb(['help', 'rn'], dir);
  assert.equal(unknown.code, 2);
  assert.deepEqual(lines(unknown.stderr), ['mmb: unknown command "rn". Did you mean `run`? See `mmb --help`.']);
});

test("mmb --version and -V print package.json's version and nothing else", () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const dir = tempDir('mmb-version-');
  for (const flag of ['--version', '-V']) {
    const r = mmb([flag], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
    assert.equal(r.stderr, '');
  }
});

test('--opt=value means --opt value for every option that takes one; a flag refuses a value', () => {
  for (const command of COMMANDS) {
    for (const option of command.options.filter((o) => o.value !== undefined)) {
      const example = option.example ?? 'x';
      const spaced = parseArguments([command.name, 'word', option.name, example]);
      const joined = parseArguments([command.name, 'word', `${option.name}=${example}`]);
      assert.equal(joined.option(option.name), example, `${command.name} ${option.name}=`);
      assert.deepEqual([joined.words, joined.flags], [spaced.words, spaced.flags], `${command.name} ${option.name}`);
      // The `=` form takes a value that starts with "-" too; only the spaced form reads it as an option.
      assert.equal(parseArguments([command.name, `${option.name}=-odd`]).option(option.name), '-odd');
      assert.throws(
        () => parseArguments([command.name, `${option.name}=`]).option(option.name),
        new RegExp(`^Error: ${option.name} needs a value`),
      );
    }
    for (const flag of command.options.filter((o) => o.value === undefined)) {
      assert.throws(
        () => parseArguments([command.name, `${flag.name}=yes`]),
        new RegExp(`^Error: ${flag.name} takes no value: write ${flag.name} alone \\(got ${flag.name}=yes\\)\\.$`),
      );
    }
  }
  assert.throws(
    () => parseArguments(['run', '--config', 'a.jsonc', '--config=b.jsonc']),
    /^Error: --config is given twice: give it once\.$/,
  );

  // Through the CLI: the config file named either way is the one read.
  const dir = workspace({ persona: { model: 'stand-in' }, runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'other.jsonc'), JSON.stringify({ runs: { other: { benchmark: 'starter', agent: 'chatbot' } } }));
  const spaced = mmb(['run', 'nope', '--config', 'sub/other.jsonc'], dir);
  const joined = mmb(['run', 'nope', '--config=sub/other.jsonc'], dir);
  assert.equal(joined.code, 2);
  assert.deepEqual(lines(joined.stderr), ['mmb: no run "nope" in sub/other.jsonc; its runs: other.']);
  assert.deepEqual(joined, spaced);
  const flag = mmb(['run', '--restart=yes'], dir);
  assert.equal(flag.code, 2);
  assert.deepEqual(lines(flag.stderr), ['mmb: --restart takes no value: write --restart alone (got --restart=yes).']);
});

test('an unknown option or command exits 2 with one line on stderr that suggests the near name', () => {
  for (const command of COMMANDS) {
    for (const option of command.options) {
      // A letter dropped: the commonest typo.
      const typo = `${option.name.slice(0, 3)}${option.name.slice(4)}`;
      assert.throws(
        () => parseArguments([command.name, typo]),
        (e: Error) => e.message.startsWith(`unknown option ${typo} for ${command.name}.`) && e.message.includes(`\`${option.name}\``),
        `${command.name} ${typo}`,
      );
    }
  }
  const dir = tempDir('mmb-typo-');
  const cases: [string[], string][] = [
    [['run', '--rehaerse'], 'mmb: unknown option --rehaerse for run. Did you mean `--rehearse`? See `mmb run --help`.'],
    [['report', '--htlm'], 'mmb: unknown option --htlm for report. Did you mean `--html`? See `mmb report --help`.'],
    [['run', '--frobnicate'], 'mmb: unknown option --frobnicate for run. See `mmb run --help`.'],
    [['reprot'], 'mmb: unknown command "reprot". Did you mean `report`? See `mmb --help`.'],
    [['--verison'], 'mmb: unknown command "--verison". See `mmb --help`.'],
  ];
  for (const [args, line] of cases) {
    const r = mmb(args, dir);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
    assert.deepEqual(lines(r.stderr), [line]);
  }
});

test('a run that cannot start or crashes says so in one line on stderr; stdout holds results only', () => {
  const dir = workspace({ persona: { model: 'stand-in' }, runs: {} });
  const configs: [unknown, string, RegExp][] = [
    [
      { runs: { a: { benchmark: 'starter', agent: 'chatbott' } } },
      'unknown agent',
      /^mmb: config\.jsonc:1:\d+ invalid-config run `a`: there is no agent "chatbott": .* Did you mean `chatbot`\?$/,
    ],
    [
      {
        persona: { model: 'gpt-x', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'MMB_TEST_ABSENT_KEY' },
        runs: { a: { benchmark: 'starter', agent: 'chatbot' } },
      },
      'missing key',
      /^mmb: run "a": .*model "gpt-x" needs an API key: set the environment variable MMB_TEST_ABSENT_KEY/,
    ],
  ];
  for (const [config, what, line] of configs) {
    writeFileSync(join(dir, 'config.jsonc'), JSON.stringify(config));
    const r = mmb(['run'], dir);
    assert.equal(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    assert.equal(r.stdout, '', what);
    assert.equal(lines(r.stderr).length, 1, `${what}: ${r.stderr}`);
    assert.match(lines(r.stderr)[0] ?? '', line, what);
  }
  writeFileSync(
    join(dir, 'config.jsonc'),
    JSON.stringify({
      persona: { model: 'stand-in' },
      runs: { d: { benchmark: 'starter', agent: 'chatbot', agent_model: { model: 'gone', base_url: 'http://127.0.0.1:9/v1' } } },
    }),
  );
  const crashed = mmb(['run'], dir, { MMB_BACKOFF_BASE_MS: '1', MMB_MODEL_TIMEOUT_MS: '500' });
  assert.equal(crashed.code, 1, crashed.stdout + crashed.stderr);
  assert.match(crashed.stdout, /^d +crashed +average/m, 'the result line stays on stdout');
  assert.doesNotMatch(crashed.stdout, /^mmb: /m);
  assert.equal(lines(crashed.stderr).length, 1, crashed.stderr);
  assert.match(crashed.stderr, /^mmb: run "d" crashed: the chatbot's model failed: model gone: /);
});

test('mmb check takes absolute paths, from any folder', () => {
  const elsewhere = tempDir('mmb-elsewhere-');
  const r = mmb(['check', STARTER], elsewhere);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.stdout, `${STARTER}: 0 errors, 0 warnings\n`);
  const dir = workspace({ runs: { a: { benchmark: 'starter', agent: 'chatbot' } } });
  const config = mmb(['check', join(dir, 'config.jsonc')], elsewhere);
  assert.equal(config.code, 0, config.stdout + config.stderr);
  assert.equal(config.stdout, `${join(dir, 'config.jsonc')}: 0 errors, 0 warnings\n`, 'the summary names the config file');
});

test('mmb check --json: every usage error is {"error": …} on stdout, exit 2, nothing on stderr', () => {
  const empty = tempDir('mmb-json-');
  const cases: [string[], RegExp][] = [
    [['check', 'nowhere', '--json'], /^cannot read nowhere: no such file or folder$/],
    [['check', '--json'], /^nothing to check in /],
    [['check', '--json', '--jsn'], /^unknown option --jsn for check\. Did you mean `--json`\?/],
    [['check', '--json=yes'], /^--json takes no value/],
    [['check', '--json', 'benchmarks/nope'], /^cannot read benchmarks\/nope: no such file or folder$/],
  ];
  for (const [args, message] of cases) {
    const r = mmb(args, empty);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stderr, '', args.join(' '));
    assert.equal(lines(r.stdout).length, 1, r.stdout);
    const body = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error']);
    assert.match(String(body.error), message, args.join(' '));
  }
  // Without --json the same problem stays a line on stderr.
  const plain = mmb(['check', 'nowhere'], empty);
  assert.equal(plain.stdout, '');
  assert.deepEqual(lines(plain.stderr), ['mmb: cannot read nowhere: no such file or folder']);
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('a path of 5,000 characters is one short line with the reason, on stderr and as --json', () => {
  const long = 'a'.repeat(5000);
  for (const args of [
    ['check', long],
    ['check', long, '--json'],
  ]) {
    const r = mmb(args, tempDir());
    assert.equal(r.code, 2);
    const text = args.includes('--json') ? `mmb: ${(JSON.parse(r.stdout) as { error: string }).error}\n` : r.stderr;
    assert.equal(text.split('\n').length, 2, 'one line');
    assert.ok(text.length < 400, `bounded (${text.length} characters)`);
    assert.match(text, /^mmb: cannot read a+…a+: a name in the path is too long\n$/);
  }
});

test('`mmb --help` and `mmb check` load no heavy chunk (tokenizer, openai, ws); a run loads those it uses from beside cli.js', () => {
  const dir = tempDir('mmb-chunks-');
  // Printed at exit: every module file the process loaded, as Node's module cache has them.
  const hook = join(dir, 'loaded.js');
  writeFileSync(hook, "process.on('exit', () => process.stderr.write(`LOADED ${JSON.stringify(Object.keys(require.cache))}\\n`));\n");
  const loaded = (args: string[]) => {
    const r = spawnSync(process.execPath, ['--require', hook, CLI, ...args], { cwd: dir, encoding: 'utf8' });
    const line = r.stderr.split('\n').find((l) => l.startsWith('LOADED ')) ?? 'LOADED []';
    return (JSON.parse(line.slice('LOADED '.length)) as string[])
      .filter((path) => /chunk-\w+\.js$/.test(path))
      .map((path) => path.replace(/^.*[\\/]/, ''));
  };
  assert.deepEqual(loaded(['--help']), []);
  assert.deepEqual(loaded(['check', STARTER]), []);
  const demo = loaded(['demo']);
  assert.ok(
    demo.includes('chunk-tokenizer.js') && demo.includes('chunk-openai.js'),
    `a stand-in run over HTTP counts tokens and calls a model: ${demo.join(', ')}`,
  );
  assert.ok(!readFileSync(CLI, 'utf8').includes('node_modules/gpt-tokenizer'), 'the tokenizer is not inside cli.js');
});

test('every command of the table has its handler in main, and every handler its row in the table', () => {
  assert.deepEqual([...HANDLED_COMMANDS].sort(), COMMANDS.map((command) => command.name).sort());
});
