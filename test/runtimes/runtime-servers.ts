import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
/** Where the suite writes runtime bundles and the workerd config (git-ignored). */
export const BUILD_DIR = join('test', 'runtimes', '.build');

/** The environment every runtime server gets: fixed, so that answers do not depend on the caller's shell. */
export const SERVER_ENV: Readonly<Record<string, string>> = Object.freeze({
  HOST: '127.0.0.1',
  AUTH_SECRET: 'runtime-conformance-secret-0123456789abcdef',
  // Small, so that the rate-limit check reaches 429 in a few requests.
  API_KEY_RATE_LIMIT: '3',
  API_KEY_RATE_WINDOW_MS: '60000',
  NO_COLOR: '1',
});

// What the other runtimes read from the environment, given to the workers as text bindings.
const TENANTS_BINDINGS = ['AUTH_SECRET', 'API_KEY_RATE_LIMIT', 'API_KEY_RATE_WINDOW_MS'] as const;

/** A running runtime server: both apps' base URLs, and how to stop it. */
export interface RuntimeServer {
  readonly pid: number;
  readonly urls: { readonly site: string; readonly tenants: string };
  /** Everything the process printed so far, for failure messages. */
  output(): string;
  /** Kills the process (SIGKILL, by pid); safe to call twice. */
  stop(): void;
}

/** A runtime the suite can drive. */
export interface RuntimeSpec {
  readonly name: 'node' | 'bun' | 'deno' | 'workerd';
  /** Whether the runtime hands the client address to `app.fetch` (see lib/http/platform-address.ts). */
  readonly givesClientAddress: boolean;
  /** The entry file in examples/runtimes and how it is built. */
  readonly entry: string;
  readonly mode: 'external' | 'bundled';
  /** Resolves to the reason the runtime cannot run here (binary missing or not starting), or undefined. */
  unavailable(): Promise<string | undefined>;
  start(bundle: string): Promise<RuntimeServer>;
}

const READY = /tessera-runtime ready (\{.*\})/;

/** Runs `binary --version` (bounded): undefined if it works, else the reason it does not. */
export function probeBinary(binary: string | undefined, args: readonly string[] = ['--version']): Promise<string | undefined> {
  if (binary === undefined) return Promise.resolve('binary not found in node_modules (is the devDependency installed?)');
  return new Promise((resolve) => {
    execFile(binary, [...args], { timeout: 15_000 }, (error, _stdout, stderr) => {
      if (error === null) resolve(undefined);
      else resolve(`\`${binary} ${args.join(' ')}\` failed: ${(stderr || error.message).trim().split('\n')[0]}`);
    });
  });
}

function firstExisting(...candidates: string[]): string | undefined {
  return candidates.map((candidate) => join(root, candidate)).find((path) => existsSync(path));
}

/** Spawns a server process and collects its output; the process is killed on stop or when this process exits. */
export function spawnServer(command: string, args: readonly string[], env: Record<string, string>): { child: ChildProcess; output: () => string; stop: () => void } {
  const child = spawn(command, [...args], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...SERVER_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const stop = () => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  // A crashed or killed test worker must not leave servers behind.
  process.once('exit', stop);
  return { child, output: () => text, stop };
}

/** Waits for the entry's ready line (`tessera-runtime ready {...}`) or fails with the output. */
function waitForReadyLine(server: ReturnType<typeof spawnServer>, name: string, timeoutMs: number): Promise<RuntimeServer> {
  const { child, output, stop } = server;
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      stop();
      reject(new Error(`${name} did not start: ${why}\n--- output ---\n${output()}`));
    };
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMs} ms`), timeoutMs);
    const onData = () => {
      const match = READY.exec(output());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      const urls = JSON.parse(match[1]) as { site: string; tenants: string };
      resolve({ pid: child.pid ?? -1, urls, output, stop });
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) => fail(error.message));
    child.once('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
  });
}

/** A port free right now on 127.0.0.1 (for workerd, whose config needs one up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Polls until the URL answers at all (any status), for servers that print no ready line. */
export async function waitForHttp(url: string, timeoutMs: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch (error) {
      if (exited()) throw new Error('the process exited');
      if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs} ms: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** One module worker of a workerd config, on its own loopback socket. */
export interface WorkerdService {
  readonly name: string;
  readonly port: number;
  /** The bundle's file name, beside the config. */
  readonly bundle: string;
  readonly bindings?: Readonly<Record<string, string>>;
  readonly compatibilityFlags?: readonly string[];
}

/**
 * A workerd config serving each module worker on its own loopback socket. The conformance suite
 * gives no `nodejs_compat` (the core must not need Node's APIs); the trace checks do.
 *
 * @example
 * workerdConfig([{ name: 'site', port: 8787, bundle: 'worker.js', bindings: { APP: 'site' } }]);
 */
export function workerdConfig(services: readonly WorkerdService[]): string {
  const worker = (service: WorkerdService) => {
    const bindings = Object.entries(service.bindings ?? {}).map(([name, text]) => `    (name = "${name}", text = "${text}"),`);
    const flags = service.compatibilityFlags ?? [];
    return `const ${service.name} :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${service.bundle}")],
  compatibilityDate = "2025-11-01",
${flags.length > 0 ? `  compatibilityFlags = [${flags.map((flag) => `"${flag}"`).join(', ')}],\n` : ''}  bindings = [
${bindings.join('\n')}
  ],
);`;
  };
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [${services.map((service) => `(name = "${service.name}", worker = .${service.name})`).join(', ')}],
  sockets = [
${services.map((service) => `    (name = "${service.name}", address = "127.0.0.1:${service.port}", http = (), service = "${service.name}"),`).join('\n')}
  ],
);

${services.map(worker).join('\n\n')}
`;
}

const START_TIMEOUT_MS = 30_000;
export const bunBinary = firstExisting('node_modules/.bin/bun', 'node_modules/@oven/bun-linux-x64/bin/bun');
export const denoBinary = firstExisting('node_modules/.bin/deno');
export const workerdBinary = firstExisting('node_modules/.bin/workerd');

/** Node, Bun, Deno and workerd, each serving the entry of examples/runtimes built against dist/. */
export const RUNTIMES: readonly RuntimeSpec[] = [
  {
    name: 'node',
    givesClientAddress: true,
    entry: 'examples/runtimes/node.ts',
    mode: 'external',
    unavailable: () => probeBinary(process.execPath),
    start: (bundle) => waitForReadyLine(spawnServer(process.execPath, [bundle], {}), 'node', START_TIMEOUT_MS),
  },
  {
    name: 'bun',
    givesClientAddress: true,
    entry: 'examples/runtimes/bun.ts',
    mode: 'external',
    unavailable: () => probeBinary(bunBinary),
    start: (bundle) => waitForReadyLine(spawnServer(bunBinary as string, [bundle], {}), 'bun', START_TIMEOUT_MS),
  },
  {
    name: 'deno',
    givesClientAddress: true,
    entry: 'examples/runtimes/deno.ts',
    mode: 'external',
    unavailable: () => probeBinary(denoBinary),
    // Least privilege: loopback, reading the repository (node_modules, dist), the environment. No --allow-ffi, so
    // the native Argon2 addon cannot load and the WebAssembly backend is exercised; --no-prompt
    // turns any other permission request into an error instead of a hang.
    start: (bundle) =>
      waitForReadyLine(
        spawnServer(denoBinary as string, ['run', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', `--allow-read=${root}`, '--allow-env', bundle], {}),
        'deno',
        START_TIMEOUT_MS,
      ),
  },
  {
    name: 'workerd',
    givesClientAddress: false,
    entry: 'examples/runtimes/worker.ts',
    mode: 'bundled',
    unavailable: () => probeBinary(workerdBinary),
    async start(bundle) {
      const [sitePort, tenantsPort] = [await freePort(), await freePort()];
      const config = join(root, BUILD_DIR, 'workerd.capnp');
      const bundleName = bundle.split('/').pop() as string;
      const tenantsBindings = Object.fromEntries(TENANTS_BINDINGS.map((name) => [name, SERVER_ENV[name] as string]));
      writeFileSync(
        config,
        workerdConfig([
          { name: 'site', port: sitePort, bundle: bundleName, bindings: { APP: 'site', ...tenantsBindings } },
          { name: 'tenants', port: tenantsPort, bundle: bundleName, bindings: { APP: 'tenants', ...tenantsBindings } },
        ]),
      );
      const server = spawnServer(workerdBinary as string, ['serve', config], {});
      const urls = { site: `http://127.0.0.1:${sitePort}`, tenants: `http://127.0.0.1:${tenantsPort}` };
      const exited = () => server.child.exitCode !== null || server.child.signalCode !== null;
      try {
        // /hello answers without building the tenants app; the tenants worker is warmed by the checks.
        await waitForHttp(`${urls.site}/hello/ready`, START_TIMEOUT_MS, exited);
        await waitForHttp(`${urls.tenants}/me`, START_TIMEOUT_MS, exited);
      } catch (error) {
        server.stop();
        throw new Error(`workerd did not start: ${(error as Error).message}\n--- output ---\n${server.output()}`);
      }
      return { pid: server.child.pid ?? -1, urls, output: server.output, stop: server.stop };
    },
  },
];
