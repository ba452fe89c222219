/**
 * The folders of `engine/src` form no import cycle. Every `import … from`, `export … from`,
 * `import('…')`, `require('…')` and `import('…').Type` of every `.ts` file is read with the
 * TypeScript compiler (type-only imports count: they tie folders as much as values do), each
 * relative one is mapped to the first folder under the root it lands in, and the folder graph is
 * searched for a cycle. Run by `npm run lint`; exits 1 naming the cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import * as ts from 'typescript';

/** Folder → the folders its files import, each with one file that does, for the message. */
export type FolderGraph = Map<string, Map<string, string>>;

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/** Every module specifier a source text names, static, dynamic or in a type position. */
export function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!)) {
      const callee = node.expression;
      const named = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
      if (named) found.push((node.arguments[0] as ts.StringLiteral).text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The top-level folder (or top-level file, without `.ts`) of a path under `root`; undefined outside it. */
function folderOf(root: string, path: string): string | undefined {
  const inside = relative(root, path);
  if (inside === '' || inside.startsWith('..') || resolve(root, inside) !== path) return undefined;
  return inside.split(sep)[0]!.replace(/\.ts$/, '');
}

/** The graph of imports between the top-level folders of `root`, from the files on disk. */
export function folderGraph(root: string): FolderGraph {
  const absoluteRoot = resolve(root);
  const graph: FolderGraph = new Map();
  for (const file of typeScriptFiles(absoluteRoot)) {
    const from = folderOf(absoluteRoot, file)!;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of moduleSpecifiers(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(absoluteRoot, resolve(dirname(file), specifier));
      if (to && to !== from && !edges.has(to)) edges.set(to, relative(absoluteRoot, file).split(sep).join('/'));
    }
  }
  return graph;
}

/** One cycle of the graph as its folders, the first repeated at the end; undefined when there is none. */
export function findCycle(graph: FolderGraph): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  // Depth-first over at most a few dozen folders: the recursion depth is bounded by their number.
  const visit = (folder: string): string[] | undefined => {
    path.push(folder);
    onPath.add(folder);
    for (const next of [...(graph.get(folder)?.keys() ?? [])].sort()) {
      if (onPath.has(next)) return [...path.slice(path.indexOf(next)), next];
      if (done.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    onPath.delete(folder);
    done.add(folder);
    return undefined;
  };
  for (const folder of [...graph.keys()].sort()) {
    if (done.has(folder)) continue;
    const cycle = visit(folder);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The message naming a cycle and, for each step, a file that makes it. */
export function describeCycle(graph: FolderGraph, cycle: readonly string[]): string {
  const steps = cycle.slice(1).map((to, i) => `  ${cycle[i]} → ${to} (${graph.get(cycle[i]!)?.get(to) ?? '?'})`);
  return `import cycle between folders: ${cycle.join(' → ')}\n${steps.join('\n')}\n`;
}

if (require.main === module) {
  const root = process.argv[2] ?? join(__dirname, '..', 'engine', 'src');
  const graph = folderGraph(root);
  const cycle = findCycle(graph);
  if (cycle) {
    process.stderr.write(`check-imports: ${describeCycle(graph, cycle)}`);
    process.exitCode = 1;
  }
}
