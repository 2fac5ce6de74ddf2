// The trace app as a Cloudflare Worker (module syntax) for workerd with `nodejs_compat`, which
// provides the AsyncLocalStorage the context manager needs.
import { toFetchHandler } from '../../../dist/fetch.js';
import { createTraceApp } from './trace-app.mjs';

const handler = createTraceApp().then((app) => toFetchHandler(app));

export default {
  async fetch(request, env, executionContext) {
    return (await handler)(request, env, executionContext);
  },
};
