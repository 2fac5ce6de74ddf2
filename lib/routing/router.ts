import { RouteDefinitionError } from './route-definition-error.js';
import { assertValidRoutePath, routeShape } from './path.js';

/**
 * The router's answer for one request.
 *
 * @example
 * const m = router.match('GET', '/posts/7');
 * if (m.kind === 'found') console.log(m.params.id);
 */
export type RouteMatch<T> =
  | { readonly kind: 'found'; readonly value: T; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[] }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-path' };

/**
 * A route as it was added to a {@link Router}.
 *
 * @example
 * for (const { method, path } of router.entries) console.log(method, path);
 */
export interface RouterEntry<T> {
  readonly method: string;
  readonly path: string;
  readonly value: T;
}

interface Terminal<T> {
  readonly value: T;
  readonly paramNames: readonly string[];
}

interface TrieNode<T> {
  readonly statics: Map<string, TrieNode<T>>;
  /** The one static child when there is exactly one: compared in place, without a substring. */
  onlyStatic: { readonly key: string; readonly node: TrieNode<T> } | undefined;
  param: TrieNode<T> | undefined;
  /** Routes ending in `*` at this node, by method. */
  wildcard: Map<string, Terminal<T>> | undefined;
  /** Routes ending exactly at this node, by method. */
  terminals: Map<string, Terminal<T>> | undefined;
}

interface StaticEntry<T> {
  readonly methods: Map<string, T>;
}

const NOT_FOUND = Object.freeze({ kind: 'not-found' as const });
const BAD_PATH = Object.freeze({ kind: 'bad-path' as const });
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** Where the path segment starting at `start` ends: the next `/`, or the path's end. */
function segmentEnd(path: string, start: number): number {
  const end = path.indexOf('/', start);
  return end < 0 ? path.length : end;
}

/** Whether `path` holds `key` at `start` (the caller checked that it fits). */
function sameAt(path: string, start: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) if (path.charCodeAt(start + i) !== key.charCodeAt(i)) return false;
  return true;
}

function createNode<T>(): TrieNode<T> {
  return { statics: new Map(), onlyStatic: undefined, param: undefined, wildcard: undefined, terminals: undefined };
}

/**
 * Matches request paths to routes. Static paths are one map lookup; parametric and wildcard
 * paths walk a segment trie where, at every segment, a static segment beats a parameter and a
 * parameter beats a wildcard. A path that matches some route but not for the request's method
 * answers with the union of methods of every route that matches it, for the `Allow` header.
 *
 * Paths are canonical (see `joinPaths`); a request path's single trailing slash is ignored,
 * so `/posts/` is `/posts`. `*` matches the rest of the path, including nothing at all.
 *
 * @example
 * const router = new Router<string>();
 * router.add('GET', '/posts/:id', 'show');
 * router.match('GET', '/posts/7'); // { kind: 'found', value: 'show', params: { id: '7' } }
 */
export class Router<T> {
  private readonly root: TrieNode<T> = createNode();
  private readonly statics = new Map<string, StaticEntry<T>>();
  /**
   * `staticLengths[n]` is true when some static route's path has n characters: a request path of
   * another length skips the map lookup, which must hash the path (a new string per request, so
   * the hash is never cached): about a fifth of a parametric match on Bun, counted in process.
   */
  private readonly staticLengths: boolean[] = [];
  /** Route shapes (parameter names erased) per method, to refuse duplicates at boot. */
  private readonly shapes = new Map<string, string>();
  private readonly added: RouterEntry<T>[] = [];

  /**
   * Every route added, in order: what a runtime with a router of its own (Bun's `routes`) is
   * given. Its length is the table's version: a copy taken earlier is stale once it grew.
   */
  get entries(): readonly RouterEntry<T>[] {
    return this.added;
  }

  /** Adds a route; a second route with the same method and shape is an error. */
  add(method: string, path: string, value: T): void {
    assertValidRoutePath(path);
    const shape = `${method} ${routeShape(path)}`;
    const existing = this.shapes.get(shape);
    if (existing !== undefined) {
      throw new RouteDefinitionError(`Duplicate route: ${method} ${path} conflicts with ${method} ${existing}.`);
    }
    this.shapes.set(shape, path);
    this.added.push(Object.freeze({ method, path, value }));

    const segments = path === '/' ? [] : path.slice(1).split('/');
    const paramNames: string[] = [];
    let node = this.root;
    let wildcard = false;
    for (const segment of segments) {
      if (segment === '*') {
        wildcard = true;
        paramNames.push('*');
        break;
      }
      if (segment.startsWith(':')) {
        paramNames.push(segment.slice(1));
        node = node.param ??= createNode();
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = createNode()));
        node.onlyStatic = node.statics.size === 1 ? { key: segment, node: next } : undefined;
        node = next;
      }
    }
    const terminal: Terminal<T> = { value, paramNames };
    if (wildcard) (node.wildcard ??= new Map()).set(method, terminal);
    else (node.terminals ??= new Map()).set(method, terminal);

    if (paramNames.length === 0) {
      let entry = this.statics.get(path);
      if (!entry) this.statics.set(path, (entry = { methods: new Map() }));
      while (this.staticLengths.length <= path.length) this.staticLengths.push(false);
      this.staticLengths[path.length] = true;
      entry.methods.set(method, value);
    }
  }

  /** Finds the route for a method and a raw (percent-encoded) request path. */
  match(method: string, rawPath: string): RouteMatch<T> {
    const path = rawPath.length > 1 && rawPath.charCodeAt(rawPath.length - 1) === 47 ? rawPath.slice(0, -1) : rawPath;
    const encoded = path.includes('%');
    if (!encoded && this.staticLengths[path.length] === true) {
      const value = this.statics.get(path)?.methods.get(method);
      if (value !== undefined) return { kind: 'found', value, params: NO_PARAMS };
    }
    const values: string[] = [];
    let terminal: Terminal<T> | undefined;
    let segments: string[] | undefined;
    if (!encoded) {
      // The common case walks the path in place: no array of segments, no substring per static segment.
      terminal = this.searchInPlace(this.root, path, path === '/' || path === '' ? path.length + 1 : 1, values, method);
    } else {
      try {
        segments = path.slice(1).split('/').map(decodeURIComponent);
      } catch {
        return BAD_PATH;
      }
      terminal = this.search(this.root, segments, 0, values, method);
    }
    if (terminal) {
      if (terminal.paramNames.length === 0) return { kind: 'found', value: terminal.value, params: NO_PARAMS };
      const params: Record<string, string> = {};
      const names = terminal.paramNames;
      for (let i = 0; i < names.length; i++) params[names[i] as string] = values[i] as string;
      return { kind: 'found', value: terminal.value, params };
    }
    segments ??= path === '/' || path === '' ? [] : path.slice(1).split('/');
    const allow = new Set<string>();
    this.collectMethods(this.root, segments, 0, allow);
    return allow.size === 0 ? NOT_FOUND : { kind: 'method-not-allowed', allow: [...allow] };
  }

  /**
   * {@link search} over an undecoded path read in place: the segment is `path[start, end)`, and
   * `start > path.length` means no segment is left. Decoded paths need the segment list (a decoded
   * segment may hold a `/`), so both walks exist; they apply the same precedence, checked against
   * one model by the router property test, whose paths come both encoded and plain.
   */
  private searchInPlace(node: TrieNode<T>, path: string, start: number, values: string[], method: string): Terminal<T> | undefined {
    if (start > path.length) {
      const exact = node.terminals?.get(method);
      if (exact) return exact;
      const rest = node.wildcard?.get(method);
      if (rest) values.push('');
      return rest;
    }
    // A lone static child is compared in place, character by character: no native call, and
    // its segment's end is known without searching for the next `/`.
    const only = node.onlyStatic;
    if (only !== undefined) {
      const end = start + only.key.length;
      if (end <= path.length && (end === path.length || path.charCodeAt(end) === 47) && sameAt(path, start, only.key)) {
        const found = this.searchInPlace(only.node, path, end + 1, values, method);
        if (found) return found;
      }
    }
    let end = -1;
    if (only === undefined && node.statics.size > 0) {
      end = segmentEnd(path, start);
      const staticChild = node.statics.get(path.slice(start, end));
      if (staticChild) {
        const found = this.searchInPlace(staticChild, path, end + 1, values, method);
        if (found) return found;
      }
    }
    if (node.param) {
      if (end === -1) end = segmentEnd(path, start);
      if (end > start) {
        values.push(path.slice(start, end));
        const found = this.searchInPlace(node.param, path, end + 1, values, method);
        if (found) return found;
        values.pop();
      }
    }
    const rest = node.wildcard?.get(method);
    if (rest) values.push(path.slice(start));
    return rest;
  }

  private search(node: TrieNode<T>, segments: string[], index: number, values: string[], method: string): Terminal<T> | undefined {
    if (index === segments.length) {
      const exact = node.terminals?.get(method);
      if (exact) return exact;
      const rest = node.wildcard?.get(method);
      if (rest) values.push('');
      return rest;
    }
    const segment = segments[index] as string;
    const staticChild = node.statics.get(segment);
    if (staticChild) {
      const found = this.search(staticChild, segments, index + 1, values, method);
      if (found) return found;
    }
    if (node.param && segment !== '') {
      values.push(segment);
      const found = this.search(node.param, segments, index + 1, values, method);
      if (found) return found;
      values.pop();
    }
    const rest = node.wildcard?.get(method);
    if (rest) values.push(segments.slice(index).join('/'));
    return rest;
  }

  private collectMethods(node: TrieNode<T>, segments: string[], index: number, allow: Set<string>): void {
    if (node.wildcard) for (const m of node.wildcard.keys()) allow.add(m);
    if (index === segments.length) {
      if (node.terminals) for (const m of node.terminals.keys()) allow.add(m);
      return;
    }
    const segment = segments[index] as string;
    const staticChild = node.statics.get(segment);
    if (staticChild) this.collectMethods(staticChild, segments, index + 1, allow);
    if (node.param && segment !== '') this.collectMethods(node.param, segments, index + 1, allow);
  }
}
