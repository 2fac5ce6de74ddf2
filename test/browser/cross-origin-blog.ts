import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createBlogApp } from '../../examples/blog/blog-app.js';
import { silentLogger } from '../../lib/index.js';
import { serve, type NodeServer } from '../../lib/node.js';

/** Debian's chromium, driven by playwright-core: never a downloaded browser, never a CDN. */
export const CHROMIUM = '/usr/bin/chromium';
/** Whether Debian's chromium is installed (.ci/run installs it). */
export const hasChromium = existsSync(CHROMIUM);

/** The browser tests' setup: a page on one origin, the blog on another allowing it, headless Chromium. */
export interface CrossOriginBlog {
  readonly browser: Browser;
  readonly blog: NodeServer;
  /** The page's URL, told where the blog is (`?api=<blog url>`). */
  readonly pageUrl: string;
  stop(): Promise<void>;
}

/**
 * Serves a page with `servePage` on its own origin, the blog on another one whose CORS allows
 * the page's origin only, and launches headless Chromium with nothing that reaches the network.
 *
 * @example
 * const setup = await startCrossOriginBlog((_req, res) => res.end(html));
 * const result = await pageResult(setup.browser, setup.pageUrl);
 */
export async function startCrossOriginBlog(servePage: (req: IncomingMessage, res: ServerResponse) => void): Promise<CrossOriginBlog> {
  const pageServer: Server = createServer(servePage);
  await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
  const pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  const blog = await serve(await createBlogApp({ CORS_ORIGINS: pageOrigin }, { logger: silentLogger }), { port: 0 });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    browser,
    blog,
    pageUrl: `${pageOrigin}/?api=${encodeURIComponent(blog.url)}`,
    async stop() {
      await browser.close();
      await blog.close({ forceAfterMs: 500 });
      await new Promise((resolve) => pageServer.close(resolve));
    },
  };
}

/**
 * Opens `url` and hands back what the page's script put in `window.result` (within 15 s).
 *
 * @example
 * const result = await pageResult(browser, setup.pageUrl);
 */
export async function pageResult(browser: Browser, url: string): Promise<Record<string, unknown>> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 15_000 });
    return (await page.evaluate(() => (window as unknown as { result: unknown }).result)) as Record<string, unknown>;
  } finally {
    await page.close();
  }
}
