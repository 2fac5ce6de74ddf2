// Shared by the adapter's socket tests; not part of the public surface.
import { request as httpRequest, type Agent, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { z } from 'zod';
import type { App } from '../../app/app.js';
import { silentLogger } from '../../logging/json-logger.js';
import { createApp, type AppOptions } from '../../app/create-app.js';
import { defineModule } from '../../modules/module.js';
import { defineController } from '../../routing/controller.js';
import { get, post } from '../../routing/route.js';

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Hooks the test app's handlers expose so tests can hold them at a point and observe them. */
export interface Probes {
  /** Resolves when /slow or /stream has started. */
  started: Deferred<void>;
  /** /slow answers and /stream sends its second chunk once this resolves. */
  gate: Deferred<void>;
  /** Resolves with the abort reason when /wait-for-abort's signal fires. */
  aborted: Deferred<unknown>;
  /** Resolves when the consumer of /endless's body cancels it. */
  cancelled: Deferred<void>;
}

export function createProbes(): Probes {
  return { started: deferred(), gate: deferred(), aborted: deferred<unknown>(), cancelled: deferred() };
}

const Item = z.object({ name: z.string().min(1), qty: z.number().int().positive() });

export async function createTestApp(probes: Probes, options: AppOptions = {}): Promise<App> {
  const encoder = new TextEncoder();
  const controller = defineController({
    name: 'TestController',
    routes: () => ({
      hello: get('/hello/:name', (ctx) => ({ hello: ctx.params.name, query: ctx.query })),
      ip: get('/ip', (ctx) => ({ ip: ctx.clientAddress ?? null })),
      create: post('/items', { body: Item, status: 201 }, (ctx) => ctx.body),
      ignoreBody: post('/ignore', () => ({ ignored: true })),
      echo: post('/echo', async (ctx) => {
        const request = ctx.request;
        return { url: request.url, method: request.method, text: await request.text(), type: request.headers.get('content-type') };
      }),
      slow: get('/slow', async () => {
        probes.started.resolve();
        await probes.gate.promise;
        return { done: true };
      }),
      waitForAbort: get('/wait-for-abort', async (ctx) => {
        ctx.signal.addEventListener('abort', () => probes.aborted.resolve(ctx.signal.reason));
        probes.started.resolve();
        await probes.aborted.promise;
        return { aborted: true };
      }),
      stream: get('/stream', () => {
        const body = new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(encoder.encode('first;'));
            probes.started.resolve();
            await probes.gate.promise;
            c.enqueue(encoder.encode('second;'));
            c.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      }),
      endless: get('/endless', () => {
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(encoder.encode('tick;'));
            probes.started.resolve();
          },
          cancel() {
            probes.cancelled.resolve();
          },
        });
        return new Response(body);
      }),
      broken: get('/broken', () => {
        const body = new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(encoder.encode('partial;'));
            await new Promise((r) => setTimeout(r, 20));
            c.error(new Error('producer failed'));
          },
        });
        return new Response(body);
      }),
      text: get('/text', () => new Response('plain text', { headers: { 'content-type': 'text/plain' } })),
      cookies: get('/cookies', () => {
        const headers = new Headers();
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/; HttpOnly');
        return new Response(null, { status: 204, headers });
      }),
    }),
  });
  return createApp(defineModule({ name: 'TestModule', controllers: [controller] }), {
    logger: silentLogger,
    ...options,
  });
}

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly reusedSocket: boolean;
}

/** A request over node:http, for what fetch hides: chunked uploads, Expect, socket reuse. */
export function rawRequest(
  url: string,
  init: {
    method?: string;
    headers?: OutgoingHttpHeaders;
    chunks?: readonly (string | Uint8Array)[];
    agent?: Agent;
    onContinue?: () => void;
    /** Sends the chunks only after `100 Continue`. */
    waitForContinue?: boolean;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: init.agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, reusedSocket: req.reusedSocket }));
      res.on('error', reject);
    });
    req.on('error', reject);
    const sendBody = () => {
      for (const chunk of init.chunks ?? []) req.write(chunk);
      req.end();
    };
    if (init.waitForContinue === true) {
      req.on('continue', () => {
        init.onContinue?.();
        sendBody();
      });
      req.flushHeaders();
    } else {
      req.on('continue', () => init.onContinue?.());
      sendBody();
    }
  });
}

/** Opens a raw TCP connection and collects what the server sends until it closes the socket. */
export async function rawSocket(port: number): Promise<{ socket: Socket; received: Promise<string> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const received = new Promise<string>((resolve) => {
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, received };
}
