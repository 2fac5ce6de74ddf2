import type { App } from '../../lib/index.js';
import { serve } from '../../lib/node.js';

/**
 * Serves an example app on Node the way every example is started: `PORT` (default 3000) and
 * `HOST` (default 127.0.0.1) from the environment, the URL printed, and a clean stop on
 * SIGINT/SIGTERM (in-flight requests finish, shutdown hooks run).
 *
 * @example
 * await runApp(await createApp(BlogModule), 'blog');
 */
export async function runApp(app: App, name: string): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  const server = await serve(app, { port, host });
  console.log(`${name} listening on ${server.url}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, stopping ${name}`);
    await server.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
