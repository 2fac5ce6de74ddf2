// Tessera, builder API, served by the Node adapter (`tessera-http/node`'s `serve`). Bundled by
// bench/run.mjs into bench/.build/tessera.mjs with esbuild (zod and jose stay external, as in
// dist/), so cold start is measured on plain JS like every other server.
import { createApp } from '../../lib/index.js';
import { serve } from '../../lib/node.js';
import { host, port, ready, scenario } from './shared.mjs';
import { benchModule } from './tessera-module.js';
import { otelMode, startOtelSdk } from './otel.mjs';

// The tenants scenarios (tenants-bearer, tenants-key-0, tenants-key-60): the examples/tenants app,
// which provisions its own credentials once listening (see tessera-tenants.ts).
const tenants = scenario.startsWith('tenants-') ? await import('./tessera-tenants.js') : undefined;

// BENCH_OTEL (npm run bench:otel): openTelemetry() with no SDK (`api`) or with the SDK (`sdk`).
await startOtelSdk();
const instrumentation = otelMode === 'none' ? undefined : (await import('../../lib/otel/index.js')).openTelemetry();
// BENCH_VALIDATOR (npm run bench:validators): the create route with zod, valibot or ArkType schemas.
const validator = scenario === 'create' ? process.env.BENCH_VALIDATOR : undefined;
const module =
  tenants !== undefined ? await tenants.tenantsModule()
  : scenario === 'me' ? (await import('./tessera-auth.js')).meModule()
  : validator !== undefined ? (await import('./tessera-validators.js')).validatorModule(validator)
  : await benchModule(scenario);
const app = await createApp(module, instrumentation ? { instrumentation } : {});
await serve(app, { port, host });
if (tenants !== undefined) await tenants.provisionTenants(port, host);
ready();
