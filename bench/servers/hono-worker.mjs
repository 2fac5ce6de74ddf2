// Hono 4 as a module Worker on workerd (bundled by bench/run.mjs); the scenario is a text binding.
import { honoApp } from './hono-app.mjs';

let app;
export default {
  async fetch(request, env, executionContext) {
    app ??= await honoApp(env.BENCH_SCENARIO);
    return app.fetch(request, env, executionContext);
  },
};
