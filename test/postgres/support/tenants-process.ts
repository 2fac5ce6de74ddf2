import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: the example is started from there, like `npm run example:tenants`. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A running `examples/tenants` process. */
export interface TenantsProcess {
  readonly url: string;
  /** Everything it printed so far (for failure messages). */
  output(): string;
  /** SIGTERM (a clean stop: in-flight requests finish, the pool closes), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/**
 * Starts `node --import ./scripts/register-swc.mjs examples/tenants/main.ts` on a free port with
 * `env` added, and resolves once it prints its URL.
 *
 * @example
 * const a = await startTenantsProcess({ DATABASE_URL: url, AUTH_SECRET: secret });
 * await fetch(`${a.url}/auth/sign-in`, ...);
 */
export async function startTenantsProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<TenantsProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', './scripts/register-swc.mjs', 'examples/tenants/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`examples/tenants did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(match[1]);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`examples/tenants exited before listening:\n${output}`));
    });
  });

  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** A response read whole: status, headers, text and parsed JSON (when it is JSON). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
  readonly ms: number;
}

/**
 * One HTTP request to a running process, timed.
 *
 * @example
 * const res = await request(a.url, 'POST', '/auth/sign-in', { json: { identifier, password } });
 */
export async function request(
  base: string,
  method: string,
  path: string,
  options: { json?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, ms: performance.now() - started };
}
