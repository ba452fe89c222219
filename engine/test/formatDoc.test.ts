/**
 * docs/format.md, the reference for authors, cannot drift from the code: it names every persona
 * tool with its arguments and every member of the adapter interface, read from the sources.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { TOOL_SPECS } from '../src/run/tools';
import { ROOT } from './helpers';

const reference = readFileSync(join(ROOT, 'docs', 'format.md'), 'utf8');

test('docs/format.md gives every persona tool with its arguments, in order', () => {
  assert.ok(TOOL_SPECS.length >= 9);
  for (const tool of TOOL_SPECS) {
    const properties = Object.keys((tool.function.parameters as { properties?: Record<string, unknown> }).properties ?? {});
    const signature = `\`${tool.function.name}(${properties.join(', ')})\``;
    assert.ok(reference.includes(signature), `docs/format.md has ${signature}`);
  }
});

/** The members of `interface AgentAdapter` in protocol/agent.ts: methods with their parameter names, properties bare. */
function adapterMembers(): string[] {
  const file = join(ROOT, 'engine', 'src', 'protocol', 'agent.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const adapter = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'AgentAdapter',
  );
  assert.ok(adapter, 'protocol/agent.ts declares AgentAdapter');
  return adapter.members.map((member) => {
    const name = member.name && ts.isIdentifier(member.name) ? member.name.text : '?';
    if (!ts.isMethodSignature(member)) return name;
    return `${name}(${member.parameters.map((p) => (ts.isIdentifier(p.name) ? p.name.text : '?')).join(', ')})`;
  });
}

test('docs/format.md lists every member of the adapter interface', () => {
  const members = adapterMembers();
  assert.ok(members.includes('createSession(name)') && members.includes('quietPeriodMs'), members.join(' '));
  for (const member of members) assert.ok(reference.includes(`| \`${member}\` |`), `docs/format.md has a row for \`${member}\``);
});
