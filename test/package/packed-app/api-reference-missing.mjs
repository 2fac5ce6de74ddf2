// The API reference page without its optional peer swagger-ui-dist (a default install has none):
// serveApiReference must refuse at mount time, naming the package to install. Prints what it threw.
import { createApp, defineModule } from 'tessera-http';
import { serveApiReference } from 'tessera-http/node';

const app = await createApp(defineModule({ name: 'AppModule' }));
try {
  serveApiReference(app, '/docs', { specUrl: '/openapi.json' });
  console.log(JSON.stringify({ mounted: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
