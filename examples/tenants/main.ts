import { createAccessLog, createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { readTenantsConfig } from './config.js';
import { auth } from './claims.js';
import { serveTenantsOpenApi } from './openapi.js';
import { createTenantsModule } from './tenants-module.js';

const app = await createApp(createTenantsModule(readTenantsConfig(process.env)), {
  onResponse: [createAccessLog({ fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) })],
});
serveTenantsOpenApi(app);
await runApp(app, 'tenants');
