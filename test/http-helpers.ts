import type { App } from '../lib/index.js';

/** Sends a request through `app.fetch` and returns status, headers and the parsed body. */
export async function send(
  app: App,
  method: string,
  path: string,
  options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
  const text = await response.text();
  let json: unknown = undefined;
  if (text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, headers: response.headers, text, json };
}
