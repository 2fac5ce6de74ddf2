import { createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { serveBlogOpenApi } from '../blog/openapi.js';
import { createClassBlogModule } from './blog-module.js';

const app = await createApp(createClassBlogModule(), { accessLog: true, health: true });
serveBlogOpenApi(app);
await runApp(app, 'blog-classes');
