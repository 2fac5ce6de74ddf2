// A class-style app bundled whole against dist/ (test/browser/fetch-client.test.ts): proves that
// the package's "sideEffects" declaration, which lets bundlers drop unused chunks, keeps what the
// facade needs (the Reflect metadata shim), so constructor injection still works once bundled.
import { createApp } from '../../../lib/index.js';
import { createClassBlogModule } from '../../../examples/blog-classes/blog-module.js';

const app = await createApp(createClassBlogModule());
const created = await app.request('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Bundled"}' });
console.log(JSON.stringify({ status: created.status, body: await created.json() }));
