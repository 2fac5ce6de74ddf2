import { createToken, TesseraError, type FactoryProvider, type InjectionToken, type Logger, type SchemaInput, type SchemaOutput, type StandardSchemaV1, type Token, type TokenValue } from '../index.js';
import type { JobBackoff } from './job-engine.js';
import { checkSchedule, type JobSchedule } from './job-schedule.js';

/**
 * Where each job's provider registers itself with its resolved providers as the app builds:
 * how the runtime learns every job declared in any module without the core knowing jobs.
 *
 * @example
 * registry.register(welcomeMail, [mailer]);
 */
export interface JobRegistry {
  register(job: JobDefinition<never>, providers: readonly unknown[]): void;
}

/** The token every job's provider injects last (see defineJob). Provided by `JobsModule.forRoot`. */
export const JOB_REGISTRY: Token<JobRegistry> = createToken<JobRegistry>('JobRegistry (import JobsModule.forRoot())');

/** The values of a list of tokens, in order: what a job's handler receives as `providers`. */
export type JobProviders<D extends readonly InjectionToken<unknown>[]> = { -readonly [K in keyof D]: TokenValue<D[K]> };

/**
 * What a job's handler receives beside its payload.
 *
 * @example
 * handler: async (payload, { providers: [mailer], attempt, signal }) => mailer.send(payload, { signal })
 */
export interface JobContext<Providers extends readonly unknown[] = readonly unknown[]> {
  /** The job's `inject` list, resolved in the module that declares the job. */
  readonly providers: Providers;
  readonly jobId: string;
  /** 1 for the first run, 2 for the first retry, ... */
  readonly attempt: number;
  /** The fire time of a scheduled run; undefined for an enqueued job. */
  readonly fireAt: Date | undefined;
  /** Aborted when the run's `timeoutMs` passes or the engine takes the job back: stop and let it be retried. */
  readonly signal: AbortSignal;
  /** The app's logger, bound to the job's name and id. */
  readonly log: Logger;
}

/**
 * The options of {@link defineJob}.
 *
 * @example
 * const options: JobOptions<typeof Welcome, [typeof MAILER]> = { name: 'welcome-mail', payload: Welcome, inject: [MAILER], handler: (p, { providers: [m] }) => m.send(p) };
 */
export interface JobOptions<S extends StandardSchemaV1 | undefined, D extends readonly InjectionToken<unknown>[]> {
  /** Unique in the app: the engine's queue name (letters, digits, `.`, `_`, `-`). */
  readonly name: string;
  /** Checked at `enqueue` (a payload that fails is refused there) and again before each run. Omit for a job without a payload. */
  readonly payload?: S;
  /** Providers the handler receives, resolved in the declaring module (as a factory's `inject`). */
  readonly inject?: D;
  readonly handler: (payload: S extends StandardSchemaV1 ? SchemaOutput<S> : undefined, context: JobContext<JobProviders<D>>) => unknown;
  /** Attempts after the first; default 3. */
  readonly retries?: number;
  /** Wait before a retry; default 1 s, doubling, at most 5 min. */
  readonly backoff?: Partial<JobBackoff>;
  /** The longest one run may take, ms; default 60 000. */
  readonly timeoutMs?: number;
  /** Runs at once per worker instance; default 1. */
  readonly concurrency?: number;
  /** Runs the job on a cron schedule as well: each fire once across every instance. */
  readonly schedule?: JobSchedule;
}

/**
 * A job declared with {@link defineJob}: listed in a module's `providers` (as a controller is in
 * `controllers`), given to `enqueue`. It is a provider under its own token, so its `inject` list
 * is resolved, and checked, like any factory's.
 *
 * @example
 * const Blog = defineModule({ name: 'Blog', imports: [JobsModule.forRoot()], providers: [welcomeMail] });
 */
export interface JobDefinition<Payload = unknown> extends FactoryProvider<JobDefinition<Payload>> {
  readonly kind: 'job';
  readonly provide: Token<JobDefinition<Payload>>;
  readonly name: string;
  readonly payload: StandardSchemaV1 | undefined;
  readonly retries: number;
  readonly backoff: JobBackoff;
  readonly timeoutMs: number;
  readonly concurrency: number;
  readonly schedule: JobSchedule | undefined;
  /** The handler, with its resolved providers; called by the job runtime. */
  readonly handler: (payload: unknown, context: JobContext) => unknown;
  /** Type carrier only: what `enqueue` accepts. Never set at run time. */
  readonly __payload?: Payload;
}

/**
 * A job written as a class (the facade's `@Job`): its `handle` is the handler, its constructor
 * parameters its providers. `enqueue` takes the class; the payload is `handle`'s first parameter.
 *
 * @example
 * class WelcomeMail implements JobHandler<{ to: string }> { async handle({ to }: { to: string }) {} }
 */
export interface JobHandler<Payload = unknown> {
  handle(payload: Payload, context: JobContext): unknown;
}

/** A class whose instances are {@link JobHandler}s: what `enqueue` takes for a job written as a class. */
export type JobClass<Payload = unknown> = abstract new (...args: never[]) => JobHandler<Payload>;

const JOB_OF_CLASS = Symbol.for('tessera:job-of-class');

/**
 * The job definition a class was declared with (`defineJobClass`, the facade's `@Job`), if any.
 *
 * @example
 * jobOfClass(WelcomeMail)?.name; // 'welcome-mail'
 */
export function jobOfClass(cls: unknown): JobDefinition<never> | undefined {
  return typeof cls === 'function' ? ((cls as unknown as Record<symbol, JobDefinition<never> | undefined>)[JOB_OF_CLASS]) : undefined;
}

/**
 * Declares a class as a job: the class is the provider (built with `inject`, the constructor's
 * dependencies), its `handle` the handler. What the facade's `@Job(options)` calls with the
 * constructor's parameter types; usable without decorators too.
 *
 * @example
 * class WelcomeMail { constructor(readonly mailer: Mailer) {} async handle(p: { to: string }) { await this.mailer.send(p); } }
 * providers: [defineJobClass(WelcomeMail, { name: 'welcome-mail', payload: Welcome, inject: [Mailer] })]
 */
export function defineJobClass<C extends JobClass>(cls: C, options: Omit<JobOptions<StandardSchemaV1 | undefined, readonly InjectionToken<unknown>[]>, 'handler'>): FactoryProvider<InstanceType<C>> {
  let instance: JobHandler | undefined;
  const job = defineJob({ ...options, inject: [], handler: (payload, context) => (instance as JobHandler).handle(payload, context) }) as unknown as JobDefinition<never>;
  Object.defineProperty(cls, JOB_OF_CLASS, { value: job, configurable: true });
  return Object.freeze({
    kind: 'factory',
    provide: cls as never,
    inject: Object.freeze([...(options.inject ?? []), JOB_REGISTRY]),
    useFactory: ((...resolved: unknown[]) => {
      const registry = resolved.pop() as JobRegistry;
      instance = new (cls as unknown as new (...args: unknown[]) => JobHandler)(...resolved);
      registry.register(job, []);
      return instance;
    }) as unknown as (...deps: never[]) => InstanceType<C>,
  });
}

/** What `enqueue` takes for a job: its payload schema's input, or nothing. */
export type JobPayload<J> = J extends JobDefinition<infer P> ? P : never;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function positiveInteger(value: number | undefined, fallback: number, what: string, min: number): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min) throw new TesseraError('JOBS_CONFIG', `${what} must be an integer of at least ${min}, got ${String(value)}.`);
  return chosen;
}

/**
 * Declares a job: a name, a payload schema (zod or any Standard Schema), a handler with its
 * injected providers, and how it is retried, bounded and run. List it in a module's
 * `providers`; enqueue it through `JOBS`.
 *
 * @example
 * export const welcomeMail = defineJob({
 *   name: 'welcome-mail',
 *   payload: z.object({ to: z.email() }),
 *   inject: [MAILER],
 *   retries: 5,
 *   handler: async ({ to }, { providers: [mailer], signal }) => mailer.send({ to, subject: 'Welcome' }, { signal }),
 * });
 */
export function defineJob<S extends StandardSchemaV1 | undefined = undefined, const D extends readonly InjectionToken<unknown>[] = []>(
  options: JobOptions<S, D>,
): JobDefinition<S extends StandardSchemaV1 ? SchemaInput<S> : undefined> {
  if (!NAME.test(options.name)) throw new TesseraError('JOBS_CONFIG', `A job's name is 1 to 100 letters, digits, ".", "_" or "-" starting with a letter or digit; got "${options.name}".`);
  const inject = [...(options.inject ?? [])];
  const retries = positiveInteger(options.retries, 3, `Job "${options.name}": retries`, 0);
  const delayMs = positiveInteger(options.backoff?.delayMs, 1_000, `Job "${options.name}": backoff.delayMs`, 0);
  const backoff: JobBackoff = {
    delayMs,
    exponential: options.backoff?.exponential ?? true,
    maxDelayMs: positiveInteger(options.backoff?.maxDelayMs, Math.max(delayMs, 300_000), `Job "${options.name}": backoff.maxDelayMs`, delayMs),
  };
  const timeoutMs = positiveInteger(options.timeoutMs, 60_000, `Job "${options.name}": timeoutMs`, 1);
  const concurrency = positiveInteger(options.concurrency, 1, `Job "${options.name}": concurrency`, 1);
  if (options.schedule !== undefined) checkSchedule(options.name, options.schedule);
  const provide = createToken<JobDefinition<never>>(`Job ${options.name}`);
  const definition: JobDefinition<never> = Object.freeze({
    kind: 'job',
    provide,
    name: options.name,
    payload: options.payload,
    retries,
    backoff: Object.freeze(backoff),
    timeoutMs,
    concurrency,
    schedule: options.schedule === undefined ? undefined : Object.freeze({ ...options.schedule }),
    handler: options.handler as (payload: unknown, context: JobContext) => unknown,
    inject: Object.freeze([...inject, JOB_REGISTRY]),
    // The registry is the last dependency, so the job's own providers are built before it and
    // still exist while it stops its workers (shutdown runs in reverse build order).
    useFactory: ((...resolved: unknown[]) => {
      const registry = resolved.pop() as JobRegistry;
      registry.register(definition, resolved);
      return definition;
    }) as (...deps: never[]) => JobDefinition<never>,
  });
  return definition as JobDefinition<S extends StandardSchemaV1 ? SchemaInput<S> : undefined>;
}
