import { afterEach, describe, expect, it } from 'vitest';
import { createApp, silentLogger, type App } from '../../lib/index.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { openSocket } from '../../test/websocket/socket-client.js';
import { createClassBlogModule } from '../blog-classes/blog-module.js';
import { createBlogApp } from './blog-app.js';

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close({ forceAfterMs: 500 });
  server = undefined;
});

const blogs: [string, () => Promise<App>][] = [
  ['the builder blog', () => createBlogApp({}, { logger: silentLogger })],
  ['the class blog', () => createApp(createClassBlogModule(), { logger: silentLogger })],
];

describe.each(blogs)('%s: GET /posts/live', (_name, build) => {
  it('pushes every created post as its JSON, the same as the create answer', async () => {
    const app = await build();
    server = await serve(app, { port: 0 });
    const live = await openSocket(`${server.url.replace('http://', 'ws://')}/posts/live`);
    const created = await fetch(`${server.url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Live"}' });
    expect(JSON.parse(String(await live.next()))).toEqual(await created.json());
    live.ws.close();
  });
});
