import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** One import of a source file: the raw specifier and, for a relative one, the file it resolves to (repo-relative). */
export interface ImportEdge {
  readonly from: string;
  readonly specifier: string;
  readonly to: string | undefined;
  /** `import type` / `export type`: erased at build time, still a dependency of the design. */
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

// Static imports and re-exports (`import x from`, `import type {..} from`, `export {..} from`,
// `import '...'`) and dynamic `import('literal')`.
const STATIC = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?(['"])([^'"]+)\3/g;
const DYNAMIC = /\bimport\(\s*(?:\/\*.*?\*\/\s*)*(['"])([^'"]+)\1\s*\)/g;

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(root, path));
    else if (name.endsWith('.ts') && !/\.test\.ts$|test-helper|test-support/.test(name)) out.push(path);
  }
  return out;
}

/**
 * Every import of the non-test TypeScript files under `dirs`, relative ones resolved to files.
 *
 * @example
 * readImports('/repo', ['lib', 'facade']).filter((e) => e.dynamic);
 */
export function readImports(root: string, dirs: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of dirs.flatMap((dir) => sourceFiles(root, dir))) {
    // Comments may quote imports (doc examples); they are not dependencies.
    const text = readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    const add = (specifier: string, typeOnly: boolean, dynamic: boolean) => {
      const to = specifier.startsWith('.') ? normalize(join(dirname(file), specifier.replace(/\.js$/, '.ts'))) : undefined;
      edges.push({ from: file, specifier, to: to === undefined ? undefined : relative('.', to), typeOnly, dynamic });
    };
    for (const m of text.matchAll(STATIC)) add(m[4] as string, m[2] !== undefined, false);
    for (const m of text.matchAll(DYNAMIC)) add(m[2] as string, false, true);
  }
  return edges;
}

/**
 * A cycle in a directed graph, as the list of nodes along it (first node repeated at the end),
 * or undefined when the graph is acyclic.
 *
 * @example
 * findCycle(new Map([['a', new Set(['b'])], ['b', new Set(['a'])]])); // ['a', 'b', 'a']
 */
export function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
