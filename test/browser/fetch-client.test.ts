import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
import { build as buildWithTsup } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcesToPackage } from '../runtimes/build-runtime-entry.js';
import { hasChromium, pageResult, startCrossOriginBlog, type CrossOriginBlog } from './cross-origin-blog.js';

// The type-only client (`createFetchClient` typed by `ApiOf`, controllers imported with `import
// type`) bundled as a frontend would bundle it: esbuild, browser platform, minified, against the
// built package (dist/). Nothing but types may cross from the server: the bundles stay under
// 5 KB, carry no zod and, built from the sources, take no byte from lib/app, lib/auth or the
// examples. Then Chromium (Debian's) runs the blog bundle against the real blog.

const root = join(import.meta.dirname, '..', '..');
const outdir = join(root, 'test', 'browser', '.build');
const entry = (name: string) => join(import.meta.dirname, 'fetch-client', name);
const LIMIT_BYTES = 5 * 1024;

interface Bundle {
  readonly text: string;
  readonly gzipBytes: number;
  /** Files that put at least one byte into the output. */
  readonly contributors: readonly string[];
}

async function bundle(file: string, against: 'dist' | 'sources'): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry(file)],
    absWorkingDir: root,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: against === 'dist' ? [sourcesToPackage('bundled')] : [],
  });
  const text = result.outputFiles[0]?.text ?? '';
  const output = Object.values(result.metafile.outputs)[0] as Metafile['outputs'][string];
  const contributors = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  return { text, gzipBytes: gzipSync(text).length, contributors };
}

const hasDist = existsSync(join(root, 'dist', 'client.js'));

describe.skipIf(!hasDist)('the type-only client bundled for the browser (needs dist/: npm test builds it)', () => {
  for (const file of ['blog-client.ts', 'tenants-client.ts']) {
    it(`${file}: under 5 KB minified against dist/, with no zod`, async () => {
      const built = await bundle(file, 'dist');
      console.info(`[type-only client] ${file}: ${built.text.length} bytes minified, ${built.gzipBytes} gzipped`);
      expect(built.text.length, `the bundle is ${built.text.length} bytes`).toBeLessThan(LIMIT_BYTES);
      expect(built.contributors.filter((path) => path.includes('node_modules/')), 'no package from node_modules (zod, jose...) in the bundle').toEqual([]);
      expect(built.text, 'no zod code').not.toMatch(/ZodError|\$ZodType|zod/i);
    });

    it(`${file}: built from the sources, takes no byte from lib/app, lib/auth or the examples`, async () => {
      const built = await bundle(file, 'sources');
      const forbidden = built.contributors.filter((path) => /^(lib\/app|lib\/auth|examples)\//.test(path) || path.includes('node_modules/'));
      expect(forbidden, `contributors: ${built.contributors.join(', ')}`).toEqual([]);
      // The subprotocol names come from the core's one leaf declaring them (no imports of its own).
      expect(built.contributors.filter((path) => path.startsWith('lib/')).sort()).toEqual(['lib/client/fetch-client.ts', 'lib/client/http-call.ts', 'lib/client/typed-socket.ts', 'lib/websocket/subprotocols.ts']);
    });
  }

  it('keeps the facade working when an app is bundled whole (the sideEffects declaration drops nothing it needs)', async () => {
    mkdirSync(outdir, { recursive: true });
    const outfile = join(outdir, 'facade-entry.mjs');
    // tsup compiles with swc (decorator metadata, as a user's build must) and bundles dist/ in.
    await buildWithTsup({ entry: { 'facade-entry': entry('facade-entry.ts') }, outDir: outdir, format: ['esm'], platform: 'node', target: 'es2022', splitting: false, dts: false, silent: true, config: false, outExtension: () => ({ js: '.mjs' }), noExternal: [/^tessera-http/], esbuildPlugins: [sourcesToPackage('bundled')] });
    const { stdout } = await promisify(execFile)(process.execPath, [outfile], { cwd: root, timeout: 30_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ status: 201, body: { title: 'Bundled' } });
  });
});

describe.skipIf(!hasDist || !hasChromium)('the type-only client in headless Chromium against the blog (needs Debian chromium and dist/)', () => {
  let setup: CrossOriginBlog;

  beforeAll(async () => {
    const built = await bundle('blog-client.ts', 'dist');
    // A page on its own origin (the blog's answers carry a CSP that forbids inline scripts) loads
    // the bundle and calls the blog on another origin, which allows the page's origin (CORS).
    const page = '<!doctype html><title>client</title><script type="module">import { exercise } from "/client.js"; const api = new URLSearchParams(location.search).get("api"); window.result = await exercise(api).catch((error) => ({ error: String(error) }));</script>';
    setup = await startCrossOriginBlog((req, res) => {
      if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(built.text);
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
  }, 60_000);

  afterAll(() => setup?.stop());

  it('listens on the live WebSocket, creates a post, reads it back and gets a 400 with its issues, from the bundle in the page', async () => {
    const result = await pageResult(setup.browser, setup.pageUrl);
    expect(result.error, 'the create call failed in the page').toBeUndefined();
    expect(result.created).toMatchObject({ status: 201, data: { title: 'From the type-only client', body: '' } });
    expect(result.read).toEqual({ status: 200, title: 'From the type-only client' });
    expect(result.invalid).toMatchObject({ status: 400, problem: { status: 400, issues: [expect.objectContaining({ path: ['title'] })] } });
    expect(result.pushedTitle, 'the live socket pushed the created post, typed').toBe('From the type-only client');
  });
});
