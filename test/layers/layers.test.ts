import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycle, readImports, type ImportEdge } from './import-graph.js';

// The layers of docs/architecture.md, read from the import graph of the sources (tests excluded).
const root = join(import.meta.dirname, '..', '..');
const edges = readImports(root, ['lib', 'facade']);

const OUTSIDE_CORE = ['lib/auth/', 'lib/jobs/', 'lib/redis/', 'lib/postgres/', 'lib/openapi/', 'lib/adapters/', 'lib/middleware/', 'lib/testing/', 'lib/client/', 'lib/otel/', 'facade/'];
/** Entries that pair the core with an adapter: `tessera-http/node`, `/fetch`, and `tessera-http` as Node, Bun and Deno resolve it. */
const ENTRIES_ABOVE_CORE = ['lib/node.ts', 'lib/fetch.ts', 'lib/index-node.ts', 'lib/index-bun.ts', 'lib/index-deno.ts'];
const CORE_ENTRY = 'lib/index.ts';
/**
 * The satellites' internal entries, one per concept (`lib/internal/request-path.ts`,
 * `lib/internal/engines.ts`, ...): what only Tessera's own packages share beyond the public
 * names (not in `exports`). A satellite takes public names from the core entry and each internal
 * name from the entry of its concept, so its imports say what it uses.
 */
const INTERNAL_DIR = 'lib/internal/';
const INTERNAL_ENTRIES = readdirSync(join(root, INTERNAL_DIR)).filter((f) => f.endsWith('.ts')).map((f) => `${INTERNAL_DIR}${f}`);
const isInternalEntry = (file: string) => INTERNAL_ENTRIES.includes(file);
/**
 * Core files a satellite may import directly: leaves with no import of their own, declared once
 * for the server and the type-only client, whose browser bundle must not take the core in
 * through an entry (test/browser/fetch-client.test.ts).
 */
const SHARED_LEAVES = ['lib/websocket/subprotocols.ts'];
const isCore = (file: string) => file.startsWith('lib/') && !OUTSIDE_CORE.some((p) => file.startsWith(p)) && !ENTRIES_ABOVE_CORE.includes(file);
/** The core folder a file belongs to (`lib/routing/route.ts` -> `routing`); the entry is its own node. */
const folderOf = (file: string) => (file === CORE_ENTRY || isInternalEntry(file) ? 'index' : (file.split('/')[1] as string));
/** The rooms above the core (`lib/auth`, `lib/adapters`, `facade`, ...): each is used by the others only through its entries. */
const ROOMS = OUTSIDE_CORE.map((prefix) => prefix.slice(0, -1));
const roomOf = (file: string) => ROOMS.find((room) => file.startsWith(`${room}/`));
/**
 * Files a package entry (`lib/node.ts`, `lib/fetch.ts`, `lib/index-bun.ts`, ...) imports directly:
 * the faces of rooms without an index of their own (the adapters' servers).
 */
const PACKAGE_FACES = new Set(edges.filter((e) => ENTRIES_ABOVE_CORE.includes(e.from) && e.to !== undefined && roomOf(e.to) !== undefined).map((e) => e.to as string));
/** A room's entries: the `index*.ts` files at its root (`lib/auth/index.ts`, `lib/testing/index-node.ts`) and what a package entry imports of it. */
const isRoomEntry = (file: string, room: string) => /^index[^/]*\.ts$/.test(file.slice(room.length + 1)) || PACKAGE_FACES.has(file);
const show = (e: ImportEdge) => `${e.from} -> ${e.specifier}${e.dynamic ? ' (dynamic)' : e.typeOnly ? ' (type-only)' : ''}`;

describe('layers (imports point down)', () => {
  it('reads a real graph (the check below is not vacuous)', () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(edges.some((e) => e.from === 'lib/app/route-table.ts' && e.to === 'lib/routing/router.ts')).toBe(true);
  });

  it('the core never imports auth, OpenAPI, the adapters, their entries or the facade, not even dynamically', () => {
    const offending = edges.filter((e) => isCore(e.from) && e.to !== undefined && !isCore(e.to));
    expect(offending.map(show)).toEqual([]);
  });

  it('the core imports no runtime module (node:*) and names no runtime (Bun, Deno)', () => {
    const offending = edges.filter((e) => isCore(e.from) && e.specifier.startsWith('node:'));
    expect(offending.map(show)).toEqual([]);
  });

  it('the core\u2019s folders have no import cycle, type-only imports included', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (!isCore(e.from) || e.to === undefined || !isCore(e.to)) continue;
      const from = folderOf(e.from);
      const to = folderOf(e.to);
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
    expect(graph.size).toBeGreaterThan(5);
    const cycle = findCycle(graph);
    const witnesses = cycle?.slice(1).map((to, i) => edges.find((e) => isCore(e.from) && e.to !== undefined && folderOf(e.from) === cycle[i] && folderOf(e.to) === to)).map((e) => (e ? show(e) : '?'));
    expect(cycle, `folder cycle, e.g. ${witnesses?.join('; ')}`).toBeUndefined();
  });

  it('no file imports itself back through a chain of imports, anywhere in lib/ and facade/, type-only imports included', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of edges) {
      if (e.to === undefined) continue;
      if (!graph.has(e.from)) graph.set(e.from, new Set());
      graph.get(e.from)?.add(e.to);
    }
    expect(graph.size, 'the file graph covers the sources').toBeGreaterThan(150);
    const cycle = findCycle(graph);
    expect(cycle, `file cycle: ${cycle?.join(' -> ')}`).toBeUndefined();
  });

  it('facade, auth, OpenAPI and the adapters use the core only through its entry points', () => {
    const offending = edges.filter((e) => !isCore(e.from) && e.to !== undefined && isCore(e.to) && e.to !== CORE_ENTRY && !isInternalEntry(e.to) && !SHARED_LEAVES.includes(e.to));
    expect(offending.map(show)).toEqual([]);
  });

  it('the core never imports an internal entry (they are the satellites\u2019 doors, not the core\u2019s)', () => {
    const offending = edges.filter((e) => isCore(e.from) && !isInternalEntry(e.from) && e.to !== undefined && isInternalEntry(e.to));
    expect(offending.map(show)).toEqual([]);
  });

  it('each internal entry only re-exports named core files, none of them a public name, and is used', () => {
    expect(INTERNAL_ENTRIES.length, 'the internal entries are found').toBeGreaterThan(3);
    const publicNames = exportedNames(CORE_ENTRY);
    for (const entry of INTERNAL_ENTRIES) {
      const statements = codeOf(entry).split(';').map((part) => part.trim()).filter((part) => part !== '');
      const foreign = statements.filter((statement) => !/^export (type )?\{[^}]*\} from '\.\.\/[^']+'$/.test(statement));
      expect(foreign, `${entry}: an internal entry holds named re-exports only (no code, no export *)`).toEqual([]);
      const shadowed = exportedNames(entry).filter((name) => publicNames.includes(name));
      expect(shadowed, `${entry} re-exports public names: import them from lib/index.ts`).toEqual([]);
      expect(edges.some((e) => e.to === entry && !isCore(e.from)), `${entry} is imported by a room above the core (the list is not stale)`).toBe(true);
    }
  });

  it('a room above the core imports another room only through its entry, never one of its internal files', () => {
    const crossing = edges.filter((e) => e.to !== undefined && roomOf(e.from) !== undefined && roomOf(e.to) !== undefined && roomOf(e.from) !== roomOf(e.to));
    expect(crossing.length, 'rooms do use each other (the check below is not vacuous)').toBeGreaterThan(0);
    const offending = crossing.filter((e) => !isRoomEntry(e.to as string, roomOf(e.to as string) as string));
    expect(offending.map(show), 'import the room\u2019s index.ts, or move what is shared into the core').toEqual([]);
  });

  it('a shared leaf imports nothing, so importing it takes nothing else in', () => {
    const imports = edges.filter((e) => SHARED_LEAVES.includes(e.from));
    expect(imports.map(show)).toEqual([]);
    expect(SHARED_LEAVES.every((leaf) => edges.some((e) => e.to === leaf)), 'every shared leaf is imported (the list is not stale)').toBe(true);
  });
});

// Inside lib/auth (docs/architecture.md "Auth by feature", docs/auth.md "Where a change goes"): the
// root holds only the entries; core/ (forRoot, the options composition, the runtime, the guards)
// composes the feature folders (sessions/*, credentials/*, accounts, factors, federation, throttle,
// events, routes, shared); a folder never reaches back up into a folder above it (the root
// included: nothing below imports lib/auth/index.ts, no exception), and the folders import each
// other in one direction only, so a change to one feature has one folder to go in.
const AUTH_ROOT = 'lib/auth';
/** What may sit at lib/auth's root: the entry `tessera-http/auth` and the entry `tessera-http/testing` takes auth's test scaffolding from. */
const AUTH_ROOT_FILES = ['index.ts', 'index-testing.ts'];
describe('inside lib/auth', () => {
  const auth = edges.filter((e) => e.from.startsWith('lib/auth/') && e.to?.startsWith('lib/auth/') === true);
  const folderEdge = (e: ImportEdge) => [dirname(e.from), dirname(e.to as string)] as const;

  it('reads the auth graph (the checks below are not vacuous)', () => {
    expect(auth.filter((e) => folderEdge(e)[0] !== folderEdge(e)[1]).length, 'imports between auth folders').toBeGreaterThan(20);
    expect(auth.some((e) => e.from === 'lib/auth/index.ts' && e.to?.startsWith('lib/auth/core/') === true), 'the entry imports core/').toBe(true);
  });

  it('the root of lib/auth holds only its entries: everything else belongs to a feature folder', () => {
    const files = readdirSync(join(root, AUTH_ROOT), { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
    const strays = files.filter((name) => !AUTH_ROOT_FILES.includes(name));
    expect(strays, 'move it into core/ or the folder of its feature (docs/architecture.md, "Auth by feature")').toEqual([]);
  });

  it('no import runs back up: a file never imports from a folder above its own', () => {
    const offending = auth.filter((e) => {
      const [from, to] = folderEdge(e);
      return from !== to && from.startsWith(`${to}/`);
    });
    expect(offending.map(show), 'move what both need into lib/auth/shared, or the composing code into lib/auth/core').toEqual([]);
  });

  it('no two folders import each other, nor through others: the folders\u2019 graph has no cycle, type-only imports included', () => {
    const graph = new Map<string, Set<string>>();
    for (const e of auth) {
      const [from, to] = folderEdge(e);
      if (from === to) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)?.add(to);
    }
    const cycle = findCycle(graph);
    const witnesses = cycle?.slice(1).map((to, i) => auth.find((e) => folderEdge(e)[0] === cycle[i] && folderEdge(e)[1] === to)).map((e) => (e ? show(e) : '?'));
    expect(cycle, `auth folder cycle, e.g. ${witnesses?.join('; ')}`).toBeUndefined();
  });
});

describe('findCycle', () => {
  it('finds a cycle, and only a real one', () => {
    expect(findCycle(new Map([['a', new Set(['b'])], ['b', new Set(['c'])], ['c', new Set(['a'])]]))).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle(new Map([['a', new Set(['b', 'c'])], ['b', new Set(['c'])], ['c', new Set<string>()]]))).toBeUndefined();
  });
});

/** A source file without its comments. */
function codeOf(file: string): string {
  return readFileSync(join(root, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The names a file re-exports with `export { ... } from` / `export type { ... } from` (the entries' only form). */
function exportedNames(file: string): string[] {
  const names: string[] = [];
  for (const [, list] of codeOf(file).matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of (list as string).split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}
