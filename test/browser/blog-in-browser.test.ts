import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from './chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlogApp } from '../../examples/blog/blog-app.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { silentLogger } from '../../lib/index.js';


describe.skipIf(!hasChromium)('the blog in headless Chromium (needs Debian chromium; .ci/run installs it)', () => {
  let browser: Browser;
  let blog: NodeServer;
  let pageServer: Server;
  let pageOrigin: string;

  beforeAll(async () => {
    const html = readFileSync(join(import.meta.dirname, 'cross-origin-page.html'));
    pageServer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    // The blog on another origin (another port), allowing the page's origin only.
    blog = await serve(await createBlogApp({ CORS_ORIGINS: pageOrigin }, { logger: silentLogger }), { port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await blog?.close({ forceAfterMs: 500 });
    await new Promise((resolve) => pageServer?.close(resolve));
  });

  it('a page on another origin creates a post with a JSON POST and a custom header, and reads a 400 problem body', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${pageOrigin}/?api=${encodeURIComponent(blog.url)}`);
      await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 15_000 });
      const result = (await page.evaluate(() => (window as unknown as { result: unknown }).result)) as Record<string, unknown>;
      expect(result.error, 'no CORS failure in the page').toBeUndefined();
      expect(result.createdStatus).toBe(201);
      expect(result.created).toMatchObject({ id: '1', title: 'From the browser', body: '' });
      expect(result.requestId, 'x-request-id is exposed to the page').toMatch(/^[0-9a-f-]{36}$/);
      expect(result.invalidStatus).toBe(400);
      expect(result.problem).toMatchObject({ status: 400, title: 'Bad Request', issues: expect.any(Array) });
    } finally {
      await page.close();
    }
  });

  it('renders /docs from local assets and its "try it out" call succeeds', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      // The browser asks for /favicon.ico on its own; the blog has none.
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(request.url()));
    try {
      await page.goto(`${blog.url}/docs`);
      const operation = page.locator('#operations-Posts-PostsController_list');
      await operation.locator('.opblock-summary').click({ timeout: 15_000 });
      // The page opens operations in "try it out" mode (tryItOutEnabled): Execute is there at once.
      await operation.getByRole('button', { name: 'Execute' }).click({ timeout: 10_000 });
      const status = operation.locator('.live-responses-table tbody td.response-col_status').first();
      await expect.poll(async () => (await status.textContent())?.trim(), { timeout: 15_000 }).toBe('200');
      expect(failed, 'every asset loaded from the blog itself').toEqual([]);
    } finally {
      await page.close();
    }
  });
});
