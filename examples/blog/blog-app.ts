import { createApp, defineModule, defineProvider, pubSubHealthCheck, systemClock, type App, type Clock, type Instrumentation, type Logger, type Middleware, type PubSub } from '../../lib/index.js';
import { compression, cors, etag, requestId, securityHeaders } from '../../lib/middleware/index.js';
import { brotliEncoder, serveApiReference } from '../../lib/node.js';
import { AttachmentsStore } from './attachments-store.js';
import { postsController } from './blog-module.js';
import { createBlogExtrasController } from './blog-extras.js';
import { BlogConfig } from './blog-config.js';
import { serveBlogOpenApi } from './openapi.js';
import { CLOCK, PostsStore } from './posts-store.js';
import { postEventsProvider } from './post-events.js';

/** What `npm start` reads from the environment (checked by {@link BlogConfig}). */
export interface BlogEnv {
  /** Comma-separated origins allowed to call the API from a browser; CORS is off without it. */
  readonly CORS_ORIGINS?: string | undefined;
  /** Largest attachment upload, bytes; default 1 MiB. */
  readonly ATTACHMENT_LIMIT_BYTES?: string | undefined;
}

/**
 * The blog as `npm start` serves it: the CRUD API of the specification plus the everyday HTTP
 * layer: request ids and security headers on every answer, CORS for `CORS_ORIGINS`, compression
 * and ETags, `GET /posts/events` (SSE), attachments, `/openapi.json` and the `/docs` reference,
 * JSON-lines logs with an access line, and `/health/live` and `/health/ready`.
 *
 * @example
 * const app = await createBlogApp({ CORS_ORIGINS: 'http://localhost:5173' });
 */
export async function createBlogApp(env: BlogEnv, options: { clock?: Clock; logger?: Logger; instrumentation?: Instrumentation; pubsub?: PubSub | undefined } = {}): Promise<App> {
  const { CORS_ORIGINS: origins, ATTACHMENT_LIMIT_BYTES: limit } = BlogConfig.load(env);
  const middleware: Middleware[] = [
    requestId(),
    securityHeaders(),
    ...(origins.length > 0 ? [cors({ exposeHeaders: ['x-request-id', 'etag'] })] : []),
    compression({ encoders: { br: brotliEncoder } }),
    etag(),
  ];
  const module = defineModule({
    name: 'BlogAppModule',
    providers: [{ provide: CLOCK, useValue: options.clock ?? systemClock }, defineProvider(PostsStore, [CLOCK]), defineProvider(AttachmentsStore, []), postEventsProvider(PostsStore)],
    controllers: [postsController, createBlogExtrasController(limit)],
  });
  const app = await createApp(module, {
    middleware,
    // The one origin policy: CORS answers these origins, and WebSocket routes admit them.
    ...(origins.length > 0 ? { origins } : {}),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.instrumentation === undefined ? {} : { instrumentation: options.instrumentation }),
    // Created posts reach the event stream and the live socket through it: with a shared engine, on every instance.
    ...(options.pubsub === undefined ? {} : { pubsub: options.pubsub }),
    accessLog: true,
    // Readiness reports a shared engine's listening connection: without it, this instance's
    // clients would miss the posts created on the others.
    health: options.pubsub === undefined ? true : { checks: [pubSubHealthCheck(options.pubsub)] },
  });
  serveBlogOpenApi(app);
  serveApiReference(app, '/docs', { specUrl: '/openapi.json', title: 'Tessera blog API' });
  return app;
}
