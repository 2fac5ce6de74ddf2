/**
 * Implemented by providers and controllers that need to start something once every provider
 * exists. `createApp` awaits each hook, dependencies first.
 *
 * @example
 * class Cache implements OnModuleInit { async onModuleInit() { await this.warm(); } }
 */
export interface OnModuleInit {
  onModuleInit(): void | Promise<void>;
}

/**
 * Called by `app.close()` once the app has drained and its WebSockets are closed, on every
 * instance before any `onModuleDestroy`: the moment to stop taking work (a job worker) while
 * every provider that work uses still exists.
 *
 * @example
 * class Workers implements BeforeModuleDestroy { async beforeModuleDestroy() { await this.stopTakingJobs(); } }
 */
export interface BeforeModuleDestroy {
  beforeModuleDestroy(): void | Promise<void>;
}

/**
 * Called by `app.close()`, dependents first (reverse of initialization).
 *
 * @example
 * class Db implements OnModuleDestroy { async onModuleDestroy() { await this.pool.end(); } }
 */
export interface OnModuleDestroy {
  onModuleDestroy(): void | Promise<void>;
}

/**
 * Called by `app.close()` after every `onModuleDestroy`, in the same order.
 *
 * @example
 * class Metrics implements OnApplicationShutdown { onApplicationShutdown() { this.flush(); } }
 */
export interface OnApplicationShutdown {
  onApplicationShutdown(): void | Promise<void>;
}

type HookName = 'onModuleInit' | 'beforeModuleDestroy' | 'onModuleDestroy' | 'onApplicationShutdown';

/**
 * Awaits `hook` on every instance that has it, in order, each instance once.
 *
 * @example
 * await runHooks(instances, 'onModuleInit');
 */
export async function runHooks(instances: readonly unknown[], hook: HookName): Promise<void> {
  const seen = new Set<unknown>();
  for (const instance of instances) {
    if (instance === null || typeof instance !== 'object' || seen.has(instance)) continue;
    seen.add(instance);
    const fn = (instance as Record<string, unknown>)[hook];
    if (typeof fn === 'function') await (fn as () => unknown).call(instance);
  }
}
