import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app/create-app.js';
import { defineModule } from '../../modules/module.js';
import { defineController } from '../../routing/controller.js';
import { z } from 'zod';
import { get, post } from '../../routing/route.js';
import { serve, type NodeServer } from './serve.js';
import { withTimeout } from './test-support.js';

// Graceful close against raw keep-alive clients that send requests back to back, one at a time,
// as wrk does: every request a client writes must get its whole answer, and a connection may end
// only between requests (the client then sees the close before it writes again).

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

interface Outcome {
  /** Requests written. */
  written: number;
  /** Requests answered in full (status line, headers, the whole body). */
  answered: number;
  /** Connections that had at least one answer. */
  served: number;
  /** Connections refused at connect time (the listener was closed): nothing was written. */
  refused: number;
  /** A reset, a failed write, or a connection that ended under a request written on it. */
  failures: string[];
}

const newOutcome = (): Outcome => ({ written: 0, answered: 0, served: 0, refused: 0, failures: [] });

const REQUEST = 'GET /hello/load HTTP/1.1\r\nHost: localhost\r\n\r\n';

interface Client {
  readonly socket: Socket;
  /** Settles when the connection is over, however it ended. */
  readonly done: Promise<void>;
}

/**
 * A raw keep-alive client. With `backToBack`, it writes its next request as soon as an answer is
 * complete (unless that answer said `Connection: close` or the server ended the connection);
 * otherwise it writes one request and then only what the test writes.
 */
function keepAliveClient(port: number, outcome: Outcome, backToBack = true): Client {
  const socket = connect(port, '127.0.0.1');
  let buffered = '';
  let outstanding = 0;
  let answers = 0;
  let connected = false;
  const write = socket.write.bind(socket);
  socket.write = ((chunk: string) => {
    outstanding++;
    outcome.written++;
    return write(chunk);
  }) as typeof socket.write;
  const done = new Promise<void>((resolve) => {
    const fail = (failure: string) => {
      outcome.failures.push(`${failure} (after ${answers} answers on the connection)`);
      socket.destroy();
    };
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      connected = true;
      socket.write(REQUEST);
    });
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (;;) {
        const headEnd = buffered.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = buffered.slice(0, headEnd).toLowerCase();
        const statusLine = head.split('\r\n')[0] ?? '';
        const length = Number(/\r\ncontent-length: *(\d+)/.exec(head)?.[1]);
        if (!Number.isInteger(length)) return fail(`an answer without a length: ${statusLine}`);
        if (buffered.length < headEnd + 4 + length) return;
        if (statusLine !== 'http/1.1 200 ok') return fail(`an answer that is not the route's: ${statusLine}`);
        buffered = buffered.slice(headEnd + 4 + length);
        outstanding--;
        outcome.answered++;
        if (++answers === 1) outcome.served++;
        if (backToBack && !/\r\nconnection: *close/.test(head) && socket.readyState === 'open') socket.write(REQUEST);
      }
    });
    socket.on('end', () => {
      if (outstanding > 0) fail('the connection ended under a request written on it, before its answer');
      socket.destroy();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !connected) outcome.refused++;
      else fail(`${error.code ?? error.message} with ${outstanding} request(s) unanswered`);
    });
    socket.on('close', () => resolve());
  });
  return { socket, done };
}

async function helloServer(): Promise<NodeServer> {
  const controller = defineController({
    name: 'Load',
    routes: () => ({
      hello: get('/hello/:name', (ctx) => ({ hello: ctx.params.name })),
      count: post('/count', { body: z.object({ n: z.number() }) }, (ctx) => ({ n: ctx.body.n })),
    }),
  });
  server = await serve(await createApp(defineModule({ name: 'Load', controllers: [controller] })), { port: 0 });
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Blocks the event loop, as a long synchronous handler, a long GC pause or a starved CPU does. */
function holdEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

describe('serve: graceful close under many keep-alive clients', () => {
  it('answers every request of 200 back-to-back clients, those the kernel queued but the server had not yet accepted included', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const clients = Array.from({ length: 200 }, () => keepAliveClient(s.port, outcome));
    // Under this load Node accepts one connection per turn of the event loop: most are still in
    // the kernel's queue, their first request written, when close() starts.
    while (outcome.served < 20) await sleep(5);
    await withTimeout(s.close(), 10_000, 'close() under load');
    await withTimeout(Promise.all(clients.map((client) => client.done)), 5_000, 'the clients to stop');
    expect(outcome.failures, 'requests that met a reset or lost their answer').toEqual([]);
    expect(outcome.answered, 'every request written was answered').toBe(outcome.written);
    expect(outcome.served + outcome.refused, 'each client was served, or refused before it wrote').toBe(200);
  });

  it('answers every request of 200 back-to-back clients all being served when close() starts', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const clients = Array.from({ length: 200 }, () => keepAliveClient(s.port, outcome));
    while (outcome.served < 200) await sleep(10);
    await withTimeout(s.close(), 10_000, 'close() under load');
    await withTimeout(Promise.all(clients.map((client) => client.done)), 5_000, 'the clients to stop');
    expect(outcome.failures, 'requests that met a reset or lost their answer').toEqual([]);
    expect(outcome.answered, 'every request written was answered').toBe(outcome.written);
  });

  it('answers a request written on an idle connection just before the event loop stalls past the idle grace', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const client = keepAliveClient(s.port, outcome, false);
    while (outcome.answered < 1) await sleep(5);
    const closed = s.close({ idleGraceMs: 100 });
    // The connection has been between requests since close() began; its next request goes out
    // before the grace ends, and the loop stalls before the server can read it.
    await sleep(60);
    client.socket.write(REQUEST);
    holdEventLoop(200);
    await withTimeout(closed, 5_000, 'close()');
    await withTimeout(client.done, 5_000, 'the client to stop');
    expect(outcome.failures, 'the request written before the stall met a reset').toEqual([]);
    expect(outcome.answered, 'both requests were answered').toBe(2);
  });

  it('still closes a connection that stays between requests, once the idle grace has passed', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const client = keepAliveClient(s.port, outcome, false);
    while (outcome.answered < 1) await sleep(5);
    const started = Date.now();
    await withTimeout(s.close({ idleGraceMs: 100 }), 3_000, 'close() with an idle connection');
    await withTimeout(client.done, 1_000, 'the client to see the close');
    expect(Date.now() - started, 'closed after the grace, not at once').toBeGreaterThanOrEqual(90);
    expect(outcome.failures).toEqual([]);
  });

  it('does not close a connection whose request headers are still arriving, however long the pause', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const client = keepAliveClient(s.port, outcome, false);
    while (outcome.answered < 1) await sleep(5);
    // Half a request, then a pause three times the grace; the rest follows.
    client.socket.write('GET /hello/slow HTTP/1.1\r\nHo');
    const closed = s.close({ idleGraceMs: 50 });
    await sleep(150);
    expect(client.socket.readyState, 'the connection is still open under the half-sent request').toBe('open');
    client.socket.end('st: localhost\r\n\r\n');
    await withTimeout(closed, 3_000, 'close()');
    await withTimeout(client.done, 1_000, 'the client to stop');
    expect(outcome.failures).toEqual([]);
    expect(outcome.answered, 'the slow request was answered').toBe(2);
  });

  it('does not close a connection whose request body is still arriving, however long the pause', async () => {
    const s = await helloServer();
    const outcome = newOutcome();
    const client = keepAliveClient(s.port, outcome, false);
    while (outcome.answered < 1) await sleep(5);
    // The headers and half the body of a request whose route reads it, then a pause three times
    // the grace; the rest follows.
    client.socket.write('POST /count HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{"n":');
    const closed = s.close({ idleGraceMs: 50 });
    await sleep(150);
    expect(client.socket.readyState, 'the connection is still open under the half-sent body').toBe('open');
    client.socket.end('1234}'); // the rest of the same request (end, unlike write, is not counted as a new one)
    await withTimeout(closed, 3_000, 'close()');
    await withTimeout(client.done, 1_000, 'the client to stop');
    expect(outcome.failures).toEqual([]);
    expect(outcome.answered, 'the request with the slow body was answered').toBe(2);
  });
});
