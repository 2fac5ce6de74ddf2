import type * as NodeModule from 'node:module';
import type * as NodeOs from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';
import { DEFAULT_ARGON2_PARAMETERS, type Argon2Parameters } from './argon2-parameters.js';
import { createArgon2PasswordHasher, type Argon2idEngine } from './argon2-password-hasher.js';
import { importOptionalModule } from '../../../internal/primitives.js';
import { PasswordHasherUnavailableError } from './password-errors.js';
import type { Argon2PasswordHasher } from './password-hasher.js';

/**
 * Options for {@link createWorkerPasswordHasher}.
 *
 * @example
 * const options: WorkerPasswordHasherOptions = { workers: 2 };
 */
export interface WorkerPasswordHasherOptions {
  /** Cost for new hashes. Default: {@link DEFAULT_ARGON2_PARAMETERS}. */
  parameters?: Argon2Parameters;
  /**
   * Number of worker threads, created on demand. Default: one less than the available cores
   * (at least 1, at most 4), leaving a core for the event loop.
   */
  workers?: number;
}

interface DeriveRequest {
  readonly id: number;
  readonly password: Uint8Array;
  readonly salt: Uint8Array;
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
  readonly hashLength: number;
}

type WorkerReply = { readonly ready: true } | { readonly id: number; readonly hash: Uint8Array } | { readonly id: number; readonly failed: true };

// Plain CommonJS evaluated inside the worker, so no separate file has to be found next to a
// bundled build and no TypeScript loader is needed in the worker. hash-wasm is loaded from the
// path the main thread resolved. Failures are reported without hash-wasm's message, which
// could one day echo an input.
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { argon2id } = require(workerData.hashWasmPath);
parentPort.on('message', (request) => {
  argon2id({
    password: request.password,
    salt: request.salt,
    memorySize: request.memoryCost,
    iterations: request.timeCost,
    parallelism: request.parallelism,
    hashLength: request.hashLength,
    outputType: 'binary',
  }).then(
    (hash) => parentPort.postMessage({ id: request.id, hash }),
    () => parentPort.postMessage({ id: request.id, failed: true }),
  );
});
parentPort.postMessage({ ready: true });
`;

interface Task {
  readonly request: DeriveRequest;
  readonly resolve: (hash: Uint8Array) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: WorkerThreads.Worker;
  task: Task | undefined;
  dead: boolean;
}

/**
 * Creates a hasher that runs hash-wasm in a pool of `worker_threads`: the event loop stays
 * free without the native addon. Node only. Call `close()` to stop the threads; idle threads
 * do not keep the process alive.
 *
 * @throws PasswordHasherUnavailableError if `worker_threads` or hash-wasm cannot be loaded.
 * @example
 * const hasher = await createWorkerPasswordHasher({ workers: 2 });
 * const stored = await hasher.hash('correct horse');
 * await hasher.close();
 */
export async function createWorkerPasswordHasher(options: WorkerPasswordHasherOptions = {}): Promise<Argon2PasswordHasher> {
  const engine = await createWorkerEngine(options.workers);
  return createArgon2PasswordHasher(engine, options.parameters ?? DEFAULT_ARGON2_PARAMETERS);
}

async function createWorkerEngine(requestedWorkers: number | undefined): Promise<Argon2idEngine> {
  if (requestedWorkers !== undefined && (!Number.isSafeInteger(requestedWorkers) || requestedWorkers < 1)) {
    throw new RangeError('workers must be a positive integer');
  }
  let workerThreads: typeof WorkerThreads;
  let hashWasmPath: string;
  let size: number;
  try {
    workerThreads = (await importOptionalModule('node:worker_threads')) as typeof WorkerThreads;
    const nodeModule = (await importOptionalModule('node:module')) as typeof NodeModule;
    const os = (await importOptionalModule('node:os')) as typeof NodeOs;
    hashWasmPath = nodeModule.createRequire(import.meta.url).resolve('hash-wasm');
    size = requestedWorkers ?? Math.min(4, Math.max(1, os.availableParallelism() - 1));
  } catch (error) {
    throw new PasswordHasherUnavailableError('worker', { cause: error });
  }

  const slots: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 0;
  let closed = false;

  function spawn(): Slot {
    const worker = new workerThreads.Worker(WORKER_SOURCE, { eval: true, workerData: { hashWasmPath } });
    // An idle pool must not keep the process alive; a busy worker is ref'd in pump().
    worker.unref();
    const slot: Slot = { worker, task: undefined, dead: false };
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) return;
      const task = slot.task;
      slot.task = undefined;
      if (task !== undefined && task.request.id === reply.id) {
        if ('hash' in reply) task.resolve(reply.hash);
        else task.reject(new Error('Argon2id computation failed in worker'));
      }
      if (queue.length === 0) worker.unref();
      pump();
    });
    const fail = (cause: unknown): void => {
      if (slot.dead) return;
      slot.dead = true;
      slots.splice(slots.indexOf(slot), 1);
      slot.task?.reject(new Error('Argon2id worker stopped', { cause }));
      slot.task = undefined;
      // Each replacement is spawned for a queued task, and a failing worker takes its task
      // with it, so a worker that can never start cannot cause an endless respawn loop.
      if (!closed) pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code: number) => fail(new Error(`worker exited with code ${code}`)));
    slots.push(slot);
    return slot;
  }

  function pump(): void {
    while (queue.length > 0) {
      const slot = slots.find((candidate) => candidate.task === undefined) ?? (slots.length < size ? spawn() : undefined);
      if (slot === undefined) return;
      const task = queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      slot.worker.postMessage(task.request);
    }
  }

  // Start one worker now and wait until hash-wasm has loaded in it, so that a broken setup is
  // reported here as "unavailable" rather than as a failure of the first sign-in.
  const first = spawn();
  // Held while starting, or a script awaiting this call with nothing else pending would exit.
  first.worker.ref();
  try {
    await new Promise<void>((resolve, reject) => {
      const onMessage = (reply: WorkerReply): void => {
        if (!('ready' in reply)) return;
        first.worker.off('message', onMessage);
        first.worker.off('error', reject);
        first.worker.off('exit', reject);
        resolve();
      };
      first.worker.on('message', onMessage);
      first.worker.once('error', reject);
      first.worker.once('exit', reject);
    });
  } catch (error) {
    await first.worker.terminate();
    throw new PasswordHasherUnavailableError('worker', { cause: error });
  }
  if (first.task === undefined) first.worker.unref();

  return Object.freeze({
    backend: 'worker' as const,
    derive: (password: Uint8Array, salt: Uint8Array, parameters: Argon2Parameters, hashLength: number) =>
      new Promise<Uint8Array>((resolve, reject) => {
        if (closed) {
          reject(new Error('Password hasher is closed'));
          return;
        }
        const request: DeriveRequest = {
          id: nextId++,
          password,
          salt,
          memoryCost: parameters.memoryCost,
          timeCost: parameters.timeCost,
          parallelism: parameters.parallelism,
          hashLength,
        };
        queue.push({ request, resolve, reject });
        pump();
      }),
    close: async () => {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('Password hasher is closed'));
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  });
}
