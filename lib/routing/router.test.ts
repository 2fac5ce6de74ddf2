import { describe, expect, it } from 'vitest';
import { Router } from './router.js';

describe('Router', () => {
  const router = new Router<string>();
  router.add('GET', '/posts', 'list');
  router.add('POST', '/posts', 'create');
  router.add('GET', '/posts/:id', 'show');
  router.add('GET', '/posts/latest', 'latest');
  router.add('DELETE', '/posts/:id', 'remove');
  router.add('GET', '/posts/:id/comments/:cid', 'comment');
  router.add('GET', '/assets/*', 'asset');
  router.add('GET', '/', 'root');

  it('prefers static over parameter over wildcard', () => {
    expect(router.match('GET', '/posts/latest')).toMatchObject({ kind: 'found', value: 'latest' });
    expect(router.match('GET', '/posts/7')).toEqual({ kind: 'found', value: 'show', params: { id: '7' } });
    expect(router.match('GET', '/posts/7/comments/9')).toMatchObject({ params: { id: '7', cid: '9' } });
    expect(router.match('GET', '/assets/a/b.css')).toMatchObject({ value: 'asset', params: { '*': 'a/b.css' } });
    expect(router.match('GET', '/')).toMatchObject({ value: 'root' });
  });

  it('falls back to a parameter route when the static one lacks the method', () => {
    expect(router.match('DELETE', '/posts/latest')).toEqual({ kind: 'found', value: 'remove', params: { id: 'latest' } });
  });

  it('reports the union of methods of every matching route', () => {
    expect(router.match('PUT', '/posts/latest')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'DELETE'] });
    expect(router.match('PATCH', '/posts')).toEqual({ kind: 'method-not-allowed', allow: ['GET', 'POST'] });
  });

  it('does not match empty parameters, and reports malformed escapes', () => {
    expect(router.match('GET', '/posts//comments/1').kind).toBe('not-found');
    expect(router.match('GET', '/posts/%ZZ').kind).toBe('bad-path');
    expect(router.match('GET', '/nope').kind).toBe('not-found');
  });

  it('refuses invalid route paths', () => {
    const r = new Router<string>();
    expect(() => r.add('GET', '/a/*/b', 'x')).toThrow(/last segment/);
    expect(() => r.add('GET', '/a/:id/:id', 'x')).toThrow(/appears twice/);
    expect(() => r.add('GET', '/a/:', 'x')).toThrow(/not a valid parameter name/);
    expect(() => r.add('GET', '/a/b*', 'x')).toThrow(/whole segment/);
  });

  it('refuses an optional parameter with a message that says so and names the two routes to declare', () => {
    const r = new Router<string>();
    expect(() => r.add('GET', '/posts/:id?', 'x')).toThrow("Route /posts/:id?: optional parameters (':id?') are not supported. Declare two routes instead, '/posts' and '/posts/:id' (one function of yours can serve both).");
    expect(() => r.add('GET', '/a/:b?/c', 'x')).toThrow("Route /a/:b?/c: optional parameters (':b?') are not supported. Declare a route for each shape instead, such as '/a/:b/c'.");
  });

  it('refuses a parameter that does not start its segment (it would be a literal the handler type calls a parameter)', () => {
    const r = new Router<string>();
    expect(() => r.add('GET', '/files/prefix-:id', 'x')).toThrow(/':' may only start a segment \('prefix-:id'\)/);
    expect(() => r.add('GET', '/v1:batch', 'x')).toThrow(/may only start a segment/);
  });
});
