// Placeholder replaced by the Node adapter work; kept minimal so the core compiles.
import { createServer } from 'node:http';
import type { App, ListeningServer } from '../../app/app.js';
export interface ServeOptions { port?: number | undefined; host?: string | undefined }
export async function serve(_app: App, _options: ServeOptions): Promise<ListeningServer> {
  void createServer;
  throw new Error('not yet implemented');
}
