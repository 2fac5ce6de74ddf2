import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExampleAgainstDist } from './build-example-against-dist.js';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, 'test', 'dist', '.build');

describe('the class-style blog built against dist/', () => {
  let child: ReturnType<typeof spawn> | undefined;
  let base = '';
  let output = '';

  beforeAll(async () => {
    if (!existsSync(join(root, 'dist', 'facade.js'))) throw new Error('dist/ is missing: `npm test` builds it first (npm run build).');
    await buildExampleAgainstDist(join(root, 'examples', 'blog-classes', 'main.ts'), outDir);
    const bundle = readFileSync(join(outDir, 'main.js'), 'utf8');
    // The point of the test: the bundle really uses the package, not the sources.
    expect(bundle).toMatch(/from "tessera-http\/facade"/);
    expect(bundle).toMatch(/design:paramtypes/);
    child = spawn(process.execPath, [join(outDir, 'main.js')], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1].replace(/\/$/, ''));
        }
      };
      child?.stdout?.on('data', onData);
      child?.stderr?.on('data', onData);
      child?.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGKILL');
  });

  it('serves the blog with constructor injection from decorator metadata', async () => {
    const created = await fetch(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"From dist"}' });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: '1', title: 'From dist', body: '' });
    expect((await fetch(`${base}/posts/1`)).status).toBe(200);
    expect((await fetch(`${base}/posts/2`)).status).toBe(404);
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
  });

  it('stops cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output, "the app logs which signal stopped it").toMatch(/"msg":"stopping blog-classes","signal":"SIGTERM"/);
  });
});
