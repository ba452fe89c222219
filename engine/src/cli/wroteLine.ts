/**
 * `Wrote results/compare-a#1-vs-a#2.html`: the line after `mmb report --html`, `--compare` or `--trends`. A path with a
 * character that a browser or a terminal's link reads as part of a URL (`#` starts a fragment, `?` a query, `%` an
 * escape; a space ends the link) is followed by its file URL, percent-encoded, which opens the file it names.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const READ_AS_URL = /[#?%\s]/;

/** `Wrote <shown>`, and ` (file:///…%23…)` when `shown` would not open as it is printed. */
export function wroteLine(file: string, shown: string): string {
  return READ_AS_URL.test(shown) ? `Wrote ${shown} (${pathToFileURL(resolve(file)).href})` : `Wrote ${shown}`;
}
