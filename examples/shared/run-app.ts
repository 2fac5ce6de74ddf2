import { z } from 'zod';
import { defineConfig, type App } from '../../lib/index.js';
import { serve } from '../../lib/node.js';

/**
 * Where an example server listens: `PORT` (default 3000) and `HOST` (default 127.0.0.1).
 *
 * @example
 * const { PORT, HOST } = ServerConfig.load(process.env);
 */
export const ServerConfig = defineConfig(
  z.object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().default('127.0.0.1'),
  }),
  { name: 'ServerConfig' },
);

/**
 * Serves an example app on Node the way every example is started: `PORT` (default 3000) and
 * `HOST` (default 127.0.0.1) from the environment, the URL printed, and a clean stop on
 * SIGINT/SIGTERM (readiness turns 503, in-flight requests finish, shutdown hooks run, then
 * `onStop`, where telemetry flushes).
 *
 * @example
 * await runApp(await createApp(BlogModule), 'blog');
 */
export async function runApp(app: App, name: string, options: { readonly onStop?: () => Promise<void> } = {}): Promise<void> {
  const { PORT: port, HOST: host } = ServerConfig.load(process.env);
  const server = await serve(app, { port, host });
  app.logger.info({ url: server.url }, `${name} listening on ${server.url}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.logger.info({ signal }, `stopping ${name}`);
    await server.close();
    await app.close();
    await options.onStop?.();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
