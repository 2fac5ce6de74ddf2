import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bunBinary, probeBinary } from './runtime-servers.js';

// Bun's native routes (lib/adapters/bun/bun-routes.ts) against the same app behind a plain fetch
// handler, on random route tables and requests: the comparison runs inside Bun
// (bun-native-routes.bun.ts, from the sources), and this test reads what it reports.
const root = join(import.meta.dirname, '..', '..');
const unavailable = await probeBinary(bunBinary);
if (unavailable !== undefined) console.warn(`[bun-native-routes] SKIPPED: ${unavailable}`);

describe.skipIf(unavailable !== undefined)("Bun's native routes", () => {
  it('answer every request as the fetch handler does (status, Content-Type, Allow, body), with Bun routing a share of them natively', async () => {
    const { stdout } = await promisify(execFile)(bunBinary as string, [join('test', 'runtimes', 'bun-native-routes.bun.ts')], { cwd: root, timeout: 120_000 }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the comparison failed:\n${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`);
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) as string) as { compared: number; nativeTables: number; nativeCalls: number };
    expect(report.compared, 'requests compared').toBeGreaterThan(500);
    expect(report.nativeTables, 'apps whose table Bun routed natively').toBeGreaterThan(50);
    expect(report.nativeCalls, 'requests Bun routed to a native handler').toBeGreaterThan(100);
  });
});
