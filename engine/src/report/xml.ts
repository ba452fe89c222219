/**
 * XML text for documents other tools parse (the JUnit file): every text a model, an agent or a
 * benchmark wrote is cut to a bound, stripped of the characters XML 1.0 forbids and escaped, so
 * no answer can end an element, open one or make the document unreadable.
 */
import { shorten } from '../../../scenario/src/plainText';

/**
 * Everything XML 1.0 does not allow in a document (its `Char` production): C0 controls other
 * than tab, line feed and carriage return, lone surrogates, U+FFFE and U+FFFF. With the `u` flag
 * a lone surrogate is one code point, so it is matched and removed whole.
 */
const FORBIDDEN = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text cut to `maxLength` UTF-16 units (an ellipsis marks the cut), then without forbidden characters. */
export function boundedXmlText(text: string, maxLength: number): string {
  const cut = shorten(text, maxLength);
  // After the cut, so that a surrogate pair the cut split leaves no lone half behind.
  return cut.replace(FORBIDDEN, '');
}

/** One line: runs of white space (line breaks included) become one space, for names and messages. */
export function oneLine(text: string, maxLength: number): string {
  return boundedXmlText(text.replace(/\s+/g, ' ').trim(), maxLength);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/** Element content: the five special characters escaped, and a carriage return as a reference so parsers keep it. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>"'\r]/g, (c) => ESCAPES[c] ?? c);
}

/** An attribute value: as element content, and tab and line feed as references, which attribute normalisation would turn into spaces. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;');
}

/** `name="value" …` from the pairs, each value escaped (callers bound them first). */
export function xmlAttributes(pairs: readonly (readonly [string, string | number])[]): string {
  return pairs.map(([name, value]) => `${name}="${escapeXmlAttribute(String(value))}"`).join(' ');
}
