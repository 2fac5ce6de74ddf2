import { openTelemetry } from '../../lib/otel/index.js';
import { runApp } from '../shared/run-app.js';
import { startTelemetry } from '../shared/telemetry.js';
import { createBlogApp } from './blog-app.js';

// Before the app: the SDK (when OTEL_* asks for one) registers its providers and context manager first.
const telemetry = await startTelemetry(process.env);
await runApp(await createBlogApp(process.env, { instrumentation: openTelemetry() }), 'blog', { onStop: telemetry.stop });
