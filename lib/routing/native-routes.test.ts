import { describe, expect, it } from 'vitest';
import { answersWithoutBody, mayRouteNatively, nativeRouteTable, routedMethod } from './native-routes.js';

const entry = (method: string, path: string) => ({ method, path, value: `${method} ${path}` });
const ALL = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

describe('the HEAD rule', () => {
  it('routes HEAD as GET and sends its answer without a body', () => {
    expect(routedMethod('HEAD'), 'HEAD is routed as GET').toBe('GET');
    expect(routedMethod('POST'), 'other methods are routed as themselves').toBe('POST');
    expect([answersWithoutBody('HEAD'), answersWithoutBody('GET')], 'only HEAD drops the body').toEqual([true, false]);
  });
});

describe('nativeRouteTable: what a runtime’s own router may take', () => {
  it('gives plain paths of the methods the runtime routes, without HEAD', () => {
    const table = nativeRouteTable([entry('GET', '/posts/:id'), entry('HEAD', '/posts/:id'), entry('POST', '/posts'), entry('TRACE', '/t')], ALL);
    expect(table?.map((e) => e.value), 'HEAD or a method the runtime does not route was given').toEqual(['GET /posts/:id', 'POST /posts']);
  });

  it('keeps every route of a method with a wildcard or an odd path away from the native router', () => {
    const table = nativeRouteTable([entry('GET', '/files/*'), entry('GET', '/posts'), entry('HEAD', '/a:b'), entry('POST', '/posts')], ALL);
    expect(table?.map((e) => e.value), 'a GET route was given beside a GET wildcard (or a HEAD one with an odd path)').toEqual(['POST /posts']);
  });

  it('turns native routing off for two paths of one shape with other parameter names', () => {
    expect(nativeRouteTable([entry('GET', '/posts/:id'), entry('DELETE', '/posts/:postId')], ALL), 'the native router would see two routes').toBeUndefined();
  });

  it('is undefined when no route may be given', () => {
    expect(nativeRouteTable([entry('GET', '/files/*')], ALL), 'an empty native table').toBeUndefined();
  });
});

describe('mayRouteNatively: which requests a native match may answer', () => {
  it('refuses a % in the path, a backslash or a #, and keeps a % in the query', () => {
    expect(mayRouteNatively('http://localhost/posts/%61'), 'a % in the path').toBe(false);
    expect(mayRouteNatively('http://localhost/posts/7?q=a\\b'), 'a backslash').toBe(false);
    expect(mayRouteNatively('http://localhost/posts/7#f'), 'a #').toBe(false);
    expect(mayRouteNatively('http://localhost/posts/7?q=%20'), 'a % in the query').toBe(true);
  });
});
