/** `mmb --version`: the version of the package the CLI ships in, read from its package.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGE_NAME = 'marathon-mem-bench';
/** A package.json larger than this is not ours: it is not read whole. */
const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

/**
 * The package's version. The bundle is `dist/cli.js`, one folder below the package root; from the
 * sources (`engine/src/cli/`), three. Only a package.json of this package counts, so a stray one
 * on the way cannot lend its version.
 */
export function packageVersion(): string {
  for (const root of [join(__dirname, '..'), join(__dirname, '..', '..', '..')]) {
    const version = versionIn(join(root, 'package.json'));
    if (version) return version;
  }
  return 'unknown (no package.json of marathon-mem-bench beside the CLI)';
}

function versionIn(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text.length > MAX_PACKAGE_JSON_BYTES) return undefined;
  try {
    const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
    const { name, version } = manifest;
    return name === PACKAGE_NAME && typeof version === 'string' && /^\d+\.\d+\.\d+[\w.+-]{0,64}$/.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}
