import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { bunBinary, denoBinary, probeBinary } from './runtime-servers.js';

// `app.listen` on a busy port rejects with SERVER_PORT_IN_USE on Bun and Deno as on Node
// (lib/adapters/node/serve.test.ts): busy-port-probe.mjs listens twice on one port with dist/.
const root = join(import.meta.dirname, '..', '..');
const probe = join('test', 'runtimes', 'busy-port-probe.mjs');
const exec = promisify(execFile);

const runtimes = [
  { name: 'bun', binary: bunBinary, args: [probe] },
  { name: 'deno', binary: denoBinary, args: ['run', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', `--allow-read=${root}`, probe] },
];

for (const runtime of runtimes) {
  const reason = await probeBinary(runtime.binary);
  describe.skipIf(reason !== undefined)(reason === undefined ? runtime.name : `${runtime.name} (SKIPPED: ${reason})`, () => {
    it('rejects app.listen on a busy port with SERVER_PORT_IN_USE naming the address, the runtime error as its cause', async () => {
      const { stdout } = await exec(runtime.binary as string, runtime.args, { cwd: root, timeout: 30_000 });
      const outcome = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { name?: string; code?: string; message?: string; causeCode?: string; port?: number };
      expect(outcome, `${runtime.name}: the second listen did not fail as planned`).toMatchObject({ name: 'TesseraError', code: 'SERVER_PORT_IN_USE', causeCode: 'EADDRINUSE' });
      expect(outcome.message, 'the message names the address and a way out').toContain(`127.0.0.1:${outcome.port}`);
    });
  });
}
