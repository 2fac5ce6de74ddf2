import { runApp } from '../shared/run-app.js';
import { createBlogApp } from './blog-app.js';

await runApp(await createBlogApp(process.env), 'blog');
