import { createAccessLog, createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { createClassBlogModule } from './blog-module.js';

await runApp(await createApp(createClassBlogModule(), { onResponse: [createAccessLog()] }), 'blog-classes');
