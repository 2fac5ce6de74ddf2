import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { UpgradedNodeIncoming } from './upgraded-incoming.js';

// The detached view of an upgrade request keeps the request line and the headers as one string
// (issue 51): every read must answer what Node's header object answered.
const socket = { remoteAddress: '10.0.0.9', localAddress: '127.0.0.1', localPort: 8080 } as Socket;
const connection = { signal: new AbortController().signal };

function view(headers: IncomingHttpHeaders, search = 'room=1', absolute?: string): UpgradedNodeIncoming {
  return new UpgradedNodeIncoming('GET', '/live/lobby', search, headers, socket, '1.1', connection, absolute);
}

describe('UpgradedNodeIncoming (an accepted upgrade request, detached)', () => {
  it('answers the request line: method, path, query and HTTP version', () => {
    const incoming = view({ host: 'example.test' });
    expect([incoming.method, incoming.path, incoming.search, incoming.protocolVersion], 'the request line read back').toEqual(['GET', '/live/lobby', 'room=1', '1.1']);
  });

  it('answers a header as the header object held it, and null for one it did not have', () => {
    const incoming = view({ host: 'example.test', 'x-tab-id': 't-7', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' });
    expect(incoming.header('x-tab-id'), 'a header of the request').toBe('t-7');
    expect(incoming.header('sec-websocket-key'), 'the last header').toBe('dGhlIHNhbXBsZSBub25jZQ==');
    expect(incoming.header('x-missing'), 'a header the request did not send').toBeNull();
    expect(incoming.header('x-tab'), 'a prefix of a header name is not that header').toBeNull();
  });

  it('joins the values of a header Node keeps as a list with ", "', () => {
    const incoming = view({ host: 'example.test', 'set-cookie': ['a=1', 'b=2'] });
    expect(incoming.header('set-cookie'), 'the list joined').toBe('a=1, b=2');
  });

  it('never takes the query for a header: a query that reads like one is not a header', () => {
    expect(view({}, 'host:evil.test').header('host'), 'no Host header, a query "host:evil.test"').toBeNull();
    expect(view({ 'x-a': '1' }, 'x-b:2').header('x-b'), 'a query "x-b:2" beside other headers').toBeNull();
  });

  it('keeps a value with a colon, a backslash or a line feed exactly as it was', () => {
    const incoming = view({ 'x-colon': 'a:b', 'x-slash': 'C:\\path\\n', 'x-line': 'one\ntwo', after: 'z' });
    expect(incoming.header('x-colon'), 'a colon in a value').toBe('a:b');
    expect(incoming.header('x-slash'), 'backslashes, one before an n').toBe('C:\\path\\n');
    expect(incoming.header('x-line'), 'a line feed (Node never gives one; it would still be kept)').toBe('one\ntwo');
    expect(incoming.header('after'), 'the header after them').toBe('z');
    expect(incoming.header('x-colon:a'), 'a name with a colon is no header').toBeNull();
  });

  it('builds a bodiless web Request with every header, a listed one value by value', () => {
    const request = view({ host: 'example.test', 'x-tab-id': 't-7', 'set-cookie': ['a=1', 'b=2'] }).toRequest();
    expect(request.url, 'the URL from Host and the target').toBe('http://example.test/live/lobby?room=1');
    expect(request.headers.get('x-tab-id'), 'a header').toBe('t-7');
    expect(request.headers.getSetCookie(), 'each value of a listed header').toEqual(['a=1', 'b=2']);
    expect(request.body, 'no body').toBeNull();
  });

  it("builds the URL from the socket's address without a Host header, and keeps an absolute-form target", () => {
    expect(view({}, '').toRequest().url, 'no Host: the local address').toBe('http://127.0.0.1:8080/live/lobby');
    expect(view({ host: 'a.test' }, '', 'http://a.test/live/lobby').toRequest().url, 'an absolute-form target').toBe('http://a.test/live/lobby');
  });
});
