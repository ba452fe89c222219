/**
 * A small, strict XML 1.0 well-formedness check for the tests (the machine has no xmllint): it
 * parses a document into elements or throws naming the first violation, and then checks the
 * shape of a JUnit document against the JUnit schema CI systems read (windyroad/JUnit-Schema's
 * JUnit.xsd, aggregated `testsuites` form), rule by rule as the XSD states them.
 */
import assert from 'node:assert/strict';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data, references decoded. */
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*/;
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, where: string): string {
  return raw.replace(/&([^;]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) throw new Error(`${where}: a bare & (${JSON.stringify(whole.slice(0, 12))})`);
    if (body in ENTITIES) return ENTITIES[body]!;
    const numeric = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
    if (!numeric) throw new Error(`${where}: unknown entity &${body};`);
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : Number(numeric[2]);
    const char = String.fromCodePoint(code);
    if (FORBIDDEN.test(char)) throw new Error(`${where}: a reference to a character XML forbids (${code})`);
    return char;
  });
}

/** Parses a whole document; throws on anything XML 1.0 does not allow (of what a JUnit writer may produce). */
export function parseXml(text: string): XmlElement {
  const bad = FORBIDDEN.exec(text);
  if (bad) throw new Error(`a character XML forbids at ${bad.index}: U+${bad[0].codePointAt(0)!.toString(16)}`);
  let at = 0;
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>/.exec(text);
  if (declaration) at = declaration[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const chunk = text.slice(at, lt < 0 ? text.length : lt);
    if (chunk.includes(']]>')) throw new Error(`"]]>" in character data at ${at}`);
    const decoded = decode(chunk, `text at ${at}`);
    if (stack.length) stack.at(-1)!.text += decoded;
    else if (chunk.trim()) throw new Error(`text outside the root element at ${at}`);
    if (lt < 0) break;
    at = lt;
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at);
      if (end < 0) throw new Error('an unclosed comment');
      at = end + 3;
    } else if (text.startsWith('<![CDATA[', at)) {
      const end = text.indexOf(']]>', at);
      if (end < 0 || !stack.length) throw new Error('a CDATA section unclosed or outside the root');
      stack.at(-1)!.text += text.slice(at + 9, end);
      at = end + 3;
    } else if (text.startsWith('</', at)) {
      const match = /^<\/([A-Za-z_:][A-Za-z0-9_.:-]*)\s*>/.exec(text.slice(at));
      const open = stack.pop();
      if (!match || !open || open.name !== match[1]) throw new Error(`a closing tag that closes nothing open at ${at}`);
      at += match[0].length;
    } else {
      const element = parseStartTag(text, at);
      at = element.end;
      if (stack.length) stack.at(-1)!.children.push(element.element);
      else if (root) throw new Error(`a second root element at ${at}`);
      else root = element.element;
      if (!element.selfClosing) stack.push(element.element);
    }
  }
  if (stack.length) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

function parseStartTag(text: string, start: number): { element: XmlElement; end: number; selfClosing: boolean } {
  let at = start + 1;
  const name = NAME.exec(text.slice(at))?.[0];
  if (!name) throw new Error(`a "<" that starts no tag at ${start}`);
  at += name.length;
  const element: XmlElement = { name, attributes: {}, children: [], text: '' };
  for (;;) {
    const space = /^\s*/.exec(text.slice(at))![0];
    at += space.length;
    if (text.startsWith('/>', at)) return { element, end: at + 2, selfClosing: true };
    if (text.startsWith('>', at)) return { element, end: at + 1, selfClosing: false };
    if (!space) throw new Error(`no space before an attribute of <${name}> at ${at}`);
    const attribute = /^([A-Za-z_:][A-Za-z0-9_.:-]*)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(text.slice(at));
    if (!attribute) throw new Error(`a malformed attribute of <${name}> at ${at}`);
    const attributeName = attribute[1]!;
    if (attributeName in element.attributes) throw new Error(`the attribute ${attributeName} twice on <${name}>`);
    // Attribute-value normalisation: literal white space becomes a space; references keep theirs.
    element.attributes[attributeName] = decode(
      (attribute[3] ?? attribute[4] ?? '').replace(/[\t\n\r]/g, ' '),
      `attribute ${attributeName}`,
    );
    at += attribute[0].length;
  }
}

const INT = /^-?\d+$/;
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function only(element: XmlElement, allowed: readonly string[], required: readonly string[]): void {
  for (const name of Object.keys(element.attributes))
    assert.ok(allowed.includes(name), `<${element.name}> has an attribute the schema does not declare: ${name}`);
  for (const name of required) assert.ok(name in element.attributes, `<${element.name}> lacks the required ${name}`);
}

/** Asserts the JUnit schema's shape and that each suite's counts add up to its cases; returns the suites. */
export function assertJunitShape(root: XmlElement): XmlElement[] {
  assert.equal(root.name, 'testsuites');
  only(root, [], []);
  root.children.forEach((suite, index) => {
    assert.equal(suite.name, 'testsuite');
    const required = ['name', 'package', 'id', 'timestamp', 'hostname', 'tests', 'failures', 'errors', 'time'];
    only(suite, [...required, 'skipped'], required);
    const attributes = suite.attributes;
    assert.ok(attributes.name!.trim() && attributes.hostname!.trim(), 'name and hostname are non-empty tokens');
    assert.equal(attributes.id, String(index), 'ids count from 0');
    assert.match(attributes.timestamp!, TIMESTAMP);
    for (const count of ['tests', 'failures', 'errors', 'skipped']) assert.match(attributes[count] ?? '0', INT, count);
    assert.match(attributes.time!, DECIMAL);
    const names = suite.children.map((c) => c.name);
    assert.equal(names[0], 'properties', 'properties come first');
    assert.deepEqual(names.slice(-2), ['system-out', 'system-err'], 'system-out and system-err come last');
    for (const property of suite.children[0]!.children) {
      assert.equal(property.name, 'property');
      only(property, ['name', 'value'], ['name', 'value']);
    }
    const cases = suite.children.slice(1, -2);
    const outcomes = cases.map((testCase) => {
      assert.equal(testCase.name, 'testcase');
      only(testCase, ['name', 'classname', 'time'], ['name', 'classname', 'time']);
      assert.match(testCase.attributes.time!, DECIMAL);
      assert.ok(testCase.children.length <= 1, 'at most one of skipped, error, failure');
      const outcome = testCase.children[0];
      if (outcome) {
        assert.ok(['skipped', 'error', 'failure'].includes(outcome.name), outcome.name);
        if (outcome.name !== 'skipped') only(outcome, ['message', 'type'], ['type']);
      }
      return outcome?.name ?? 'passed';
    });
    const count = (name: string) => String(outcomes.filter((o) => o === name).length);
    assert.equal(attributes.tests, String(cases.length), 'tests counts the cases');
    assert.equal(attributes.failures, count('failure'));
    assert.equal(attributes.errors, count('error'));
    assert.equal(attributes.skipped ?? '0', count('skipped'));
  });
  return root.children;
}

/** The cases of a suite. */
export function casesOf(suite: XmlElement): XmlElement[] {
  return suite.children.filter((c) => c.name === 'testcase');
}
