import { defineJobClass, type JobOptions } from '../lib/jobs/index.js';
import type { InjectionToken, StandardSchemaV1 } from '../lib/index.js';
import { attachDefinition, resolveConstructorDeps } from './injectable.js';

/**
 * The options of `@Job`: `defineJob`'s, without the handler (the class's `handle`) and the
 * providers (its constructor's parameters).
 *
 * @example
 * const options: JobDecoratorOptions = { name: 'welcome-mail', retries: 5 };
 */
export type JobDecoratorOptions = Omit<JobOptions<StandardSchemaV1 | undefined, readonly InjectionToken<unknown>[]>, 'handler' | 'inject'>;

/**
 * Declares a class as a job, the class form of `defineJob`: its `handle(payload, context)` is the
 * handler, its constructor's parameters (their types, or `@Inject`) its providers. List the class
 * in a module's `providers`; `jobs.enqueue(TheClass, payload)` enqueues it.
 *
 * @example
 * @Job({ name: 'welcome-mail', payload: Welcome, retries: 5 })
 * class WelcomeMail implements JobHandler<z.input<typeof Welcome>> {
 *   constructor(private readonly mailer: Mailer) {}
 *   async handle({ to }: z.input<typeof Welcome>) { await this.mailer.send({ to, subject: 'Welcome' }); }
 * }
 */
export function Job(options: JobDecoratorOptions): ClassDecorator {
  return (target) => {
    const cls = target as unknown as abstract new (...args: never[]) => { handle(payload: unknown): unknown };
    // Declared at once (the options are checked, enqueue knows the class); the dependencies are
    // read when the app is built, as @Injectable's are, so a missing metadata fails in createApp.
    defineJobClass(cls, { ...options, inject: [] });
    attachDefinition(cls, () => {
      const provider = defineJobClass(cls, { ...options, inject: resolveConstructorDeps(cls) });
      return { kind: 'factory', provide: provider.provide, useFactory: provider.useFactory, inject: provider.inject };
    });
  };
}
