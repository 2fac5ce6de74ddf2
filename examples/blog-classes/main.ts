import { createApp } from '../../lib/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { startTelemetry } from '../shared/telemetry.js';
import { runApp } from '../shared/run-app.js';
import { serveBlogOpenApi } from '../blog/openapi.js';
import { createClassBlogModule } from './blog-module.js';

const telemetry = await startTelemetry(process.env);
const app = await createApp(createClassBlogModule(), { accessLog: true, health: true, instrumentation: openTelemetry() });
serveBlogOpenApi(app);
await runApp(app, 'blog-classes', { onStop: telemetry.stop });
