import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { Router } from '../lib/routing/router.js';

/**
 * An independent, deliberately naive model of the router: try every route, keep those whose
 * pattern matches, and pick the most specific by comparing segment kinds left to right
 * (static < parameter < wildcard; an exact end beats a wildcard that matches nothing).
 */
type Kind = 0 | 1 | 2;
interface ModelRoute {
  method: string;
  segments: string[];
  id: number;
}

function kinds(route: ModelRoute): Kind[] {
  return route.segments.map((s) => (s === '*' ? 2 : s.startsWith(':') ? 1 : 0));
}

function modelMatch(route: ModelRoute, path: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i] as string;
    if (seg === '*') {
      params['*'] = path.slice(i).join('/');
      return params;
    }
    const part = path[i];
    if (part === undefined) return undefined;
    if (seg.startsWith(':')) {
      if (part === '') return undefined;
      params[seg.slice(1)] = part;
    } else if (seg !== part) return undefined;
  }
  return route.segments.length === path.length ? params : undefined;
}

function compareSpecificity(a: ModelRoute, b: ModelRoute): number {
  const ka = kinds(a);
  const kb = kinds(b);
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    // A route that ends here (exact) sorts before one that continues with a wildcard.
    const x = ka[i] ?? -1;
    const y = kb[i] ?? -1;
    if (x !== y) return x - y;
  }
  return 0;
}

// 'ab' beside 'a': a static segment must match whole, not as a prefix of the request's segment.
const segmentArb = fc.constantFrom('a', 'b', 'c', 'ab', ':p', ':q', '*');
const routeArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  segments: fc.array(segmentArb, { maxLength: 4 }),
});
const pathArb = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'ab', ''), { maxLength: 5 });

/** Percent-encodes every character (`a` -> `%61`): the router walks such paths decoded, plain ones in place. */
function percentEncoded(segment: string): string {
  return segment.replace(/./g, (c) => `%${c.charCodeAt(0).toString(16)}`);
}

describe('router against a naive matcher', () => {
  it('finds the same route, params, 405 method set or 404', () => {
    fc.assert(
      fc.property(fc.array(routeArb, { maxLength: 12 }), pathArb, fc.constantFrom('GET', 'POST', 'DELETE', 'PUT'), fc.boolean(), (raw, pathSegs, method, encode) => {
        const router = new Router<number>();
        const routes: ModelRoute[] = [];
        raw.forEach((r, id) => {
          // Canonical form: a wildcard ends the path; parameter names must be unique per route.
          const cut = r.segments.indexOf('*');
          const segments = (cut === -1 ? r.segments : r.segments.slice(0, cut + 1)).map((s, i) => (s.startsWith(':') ? `${s}${i}` : s));
          const path = `/${segments.join('/')}`;
          try {
            router.add(r.method, path, id);
            routes.push({ method: r.method, segments, id });
          } catch (error) {
            // Duplicates are refused: the model must agree that an equal-shaped route exists.
            const shape = (route: ModelRoute) => route.segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
            expect(routes.some((m) => m.method === r.method && shape(m) === shape({ method: r.method, segments, id }))).toBe(true);
            expect((error as Error).message).toMatch(/Duplicate route/);
          }
        });
        // Requests with an empty final segment other than the root get their trailing slash ignored.
        const requestPath = `/${pathSegs.join('/')}`;
        const effective = requestPath.length > 1 && requestPath.endsWith('/') ? requestPath.slice(0, -1) : requestPath;
        const pathParts = effective === '/' ? [] : effective.slice(1).split('/');

        const candidates = routes.filter((r) => modelMatch(r, pathParts) !== undefined);
        const withMethod = candidates.filter((r) => r.method === method).sort(compareSpecificity);
        const result = router.match(method, encode ? `/${pathSegs.map(percentEncoded).join('/')}` : requestPath);
        const best = withMethod[0];
        if (best) {
          expect(result).toEqual({ kind: 'found', value: best.id, params: modelMatch(best, pathParts) });
        } else if (candidates.length > 0) {
          expect(result.kind).toBe('method-not-allowed');
          const allow = result.kind === 'method-not-allowed' ? [...result.allow].sort() : [];
          expect(allow).toEqual([...new Set(candidates.map((c) => c.method))].sort());
        } else {
          expect(result.kind).toBe('not-found');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
