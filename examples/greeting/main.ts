import { createApp } from '../../lib/index.js';
import { runApp } from '../shared/run-app.js';
import { GreetingModule } from './greeting-module.js';

await runApp(await createApp(GreetingModule), 'greeting');
