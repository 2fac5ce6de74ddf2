import { createAccessLog, createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { createBlogModule } from './blog-module.js';

await runApp(await createApp(createBlogModule(), { onResponse: [createAccessLog()] }), 'blog');
