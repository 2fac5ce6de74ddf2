// Hono 4 on @hono/node-server (the app: hono-app.mjs).
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { honoApp } from './hono-app.mjs';
import { host, port, ready, scenario } from './shared.mjs';
import { otelMode, startOtelSdk } from './otel.mjs';

const app = new Hono();
if (otelMode === 'sdk') {
  // @hono/otel's middleware, first in the chain: a SERVER span and the HTTP metrics per request.
  await startOtelSdk();
  const { httpInstrumentationMiddleware } = await import('@hono/otel');
  app.use(httpInstrumentationMiddleware());
}
await honoApp(scenario, app);
serve({ fetch: app.fetch, port, hostname: host }, ready);
