import { openTelemetry } from '../../lib/otel/index.js';
import { runApp } from '../shared/run-app.js';
import { startTelemetry } from '../shared/telemetry.js';
import { createBlogApp } from './blog-app.js';
import { jsonLogger } from '../../lib/index.js';
import { pubsubFromEnv } from '../shared/pubsub-from-env.js';

// Before the app: the SDK (when OTEL_* asks for one) registers its providers and context manager first.
const telemetry = await startTelemetry(process.env);
// REDIS_URL (or DATABASE_URL): created posts reach the event stream and live sockets of every instance.
const bus = await pubsubFromEnv(process.env, jsonLogger());
const app = await createBlogApp(process.env, { instrumentation: openTelemetry(), pubsub: bus?.pubsub });
await runApp(app, 'blog', { onStop: async () => { await bus?.close(); await telemetry.stop(); } });
