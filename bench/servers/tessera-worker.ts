// Tessera as a module Worker on workerd (bundled whole by bench/run.mjs): `toFetchHandler(app)`,
// the app built at the first request from the scenario binding.
import { createApp } from '../../lib/index.js';
import { toFetchHandler } from '../../lib/fetch.js';
import { benchModule } from './tessera-module.js';

let handler: ReturnType<typeof toFetchHandler> | undefined;
export default {
  async fetch(request: Request, env: { readonly BENCH_SCENARIO: string }, executionContext: unknown): Promise<Response> {
    handler ??= toFetchHandler(await createApp(await benchModule(env.BENCH_SCENARIO)));
    return handler(request, env, executionContext);
  },
};
