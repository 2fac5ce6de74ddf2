import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium, driven by playwright-core: never a downloaded browser, never a CDN. */
export const CHROMIUM = '/usr/bin/chromium';
/** Whether Debian's chromium is installed (.ci/run installs it). */
export const hasChromium = existsSync(CHROMIUM);

/**
 * Launches headless Chromium for the browser tests, with nothing that reaches the network.
 *
 * @example
 * const browser = await launchChromium();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
