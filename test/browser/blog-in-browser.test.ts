import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, pageResult, startCrossOriginBlog, type CrossOriginBlog } from './cross-origin-blog.js';

describe.skipIf(!hasChromium)('the blog in headless Chromium (needs Debian chromium; .ci/run installs it)', () => {
  let setup: CrossOriginBlog;

  beforeAll(async () => {
    const html = readFileSync(join(import.meta.dirname, 'cross-origin-page.html'));
    const socketPage = readFileSync(join(import.meta.dirname, 'websocket-page.html'));
    setup = await startCrossOriginBlog((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url?.startsWith('/live') ? socketPage : html));
  }, 60_000);

  afterAll(() => setup?.stop());

  it('a page on another origin creates a post with a JSON POST and a custom header, and reads a 400 problem body', async () => {
    const result = await pageResult(setup.browser, setup.pageUrl);
    expect(result.error, 'no CORS failure in the page').toBeUndefined();
    expect(result.createdStatus).toBe(201);
    expect(result.created).toMatchObject({ id: '1', title: 'From the browser', body: '' });
    expect(result.requestId, 'x-request-id is exposed to the page').toMatch(/^[0-9a-f-]{36}$/);
    expect(result.invalidStatus).toBe(400);
    expect(result.problem).toMatchObject({ status: 400, title: 'Bad Request', issues: expect.any(Array) });
  });

  it("a page on an allowed origin receives a created post on the blog's live WebSocket", async () => {
    const result = await pageResult(setup.browser, setup.pageUrl.replace('/?', '/live?'));
    expect(result.opened, 'the upgrade was accepted').toBe(true);
    expect(result.messages, 'the socket delivered the created post, as the POST answered it').toEqual([result.created]);
    expect(result.closeCode).toBe(1000);
  });

  it('a page on an origin the blog does not allow cannot open the live WebSocket (403 before any socket)', async () => {
    // localhost and 127.0.0.1 are different origins: the blog's CORS allows the latter only.
    const result = await pageResult(setup.browser, setup.pageUrl.replace('/?', '/live?').replace('//127.0.0.1', '//localhost'));
    expect(result.opened, 'the upgrade was refused').toBeUndefined();
    expect(result.messages).toEqual([]);
    expect(result.closeCode).toBe(1006);
  });

  it('renders /docs from local assets and its "try it out" call succeeds', { timeout: 60_000 }, async () => {
    const page = await setup.browser.newPage();
    const failed: string[] = [];
    page.on('response', (response) => {
      // The browser asks for /favicon.ico on its own; the blog has none.
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(request.url()));
    try {
      await page.goto(`${setup.blog.url}/docs`);
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
