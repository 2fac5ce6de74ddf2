import { createAccessLog, createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { serveBlogOpenApi } from './openapi.js';
import { createBlogModule } from './blog-module.js';

const app = await createApp(createBlogModule(), { onResponse: [createAccessLog()] });
serveBlogOpenApi(app);
await runApp(app, 'blog');
