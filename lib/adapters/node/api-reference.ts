import { TesseraError, type App } from '../../index.js';

/**
 * Options of {@link serveApiReference}.
 *
 * @example
 * serveApiReference(app, '/docs', { specUrl: '/openapi.json', title: 'Blog API' });
 */
export interface ApiReferenceOptions {
  /** Where the OpenAPI document is served (see `serveOpenApi`). */
  readonly specUrl: string;
  /** The page title. Default `API reference`. */
  readonly title?: string;
}

interface Asset {
  readonly type: string;
  readonly body: Uint8Array<ArrayBuffer>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Reads swagger-ui-dist's files from node_modules once, at mount time. */
function loadSwaggerUi(): { bundle: Uint8Array<ArrayBuffer>; css: Uint8Array<ArrayBuffer> } {
  const { createRequire } = process.getBuiltinModule('node:module');
  const { readFileSync } = process.getBuiltinModule('node:fs');
  const { dirname, join } = process.getBuiltinModule('node:path');
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    throw new TesseraError('API_REFERENCE_ASSETS_MISSING', 'serveApiReference needs the swagger-ui-dist package, an optional peer dependency of tessera-http that is not installed with it: npm install swagger-ui-dist');
  }
  // Copied into plain ArrayBuffers: a Buffer may share a pooled one, which a Response must not expose.
  return { bundle: new Uint8Array(readFileSync(join(dir, 'swagger-ui-bundle.js'))), css: new Uint8Array(readFileSync(join(dir, 'swagger-ui.css'))) };
}

/**
 * Serves an interactive API reference (Swagger UI) for the app's OpenAPI document at `path`,
 * from local assets: the optional peer dependency `swagger-ui-dist`, read from `node_modules` once at
 * mount time (Node, Bun and Deno), never from a CDN, so it works offline and under a strict
 * Content-Security-Policy (scripts and styles from the page's own origin only). The routes are
 * raw routes: public, like `serveOpenApi`'s. On Workers, serve the same files as static assets.
 *
 * @example
 * serveOpenApi(app, '/openapi.json', { title: 'Blog', version: '1.0.0' });
 * serveApiReference(app, '/docs', { specUrl: '/openapi.json', title: 'Blog API' });
 */
export function serveApiReference(app: Pick<App, 'addRawRoute'>, path: string, options: ApiReferenceOptions): void {
  const base = path.replace(/\/+$/, '');
  const { bundle, css } = loadSwaggerUi();
  const encoder = new TextEncoder();
  const init = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(options.specUrl)}, dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: true });\n`;
  const title = escapeHtml(options.title ?? 'API reference');
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${escapeHtml(base)}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${escapeHtml(base)}/swagger-ui-bundle.js"></script>
<script src="${escapeHtml(base)}/init.js"></script>
</body>
</html>
`;
  const assets: Record<string, Asset> = {
    [base || '/']: { type: 'text/html; charset=utf-8', body: encoder.encode(page) },
    [`${base}/swagger-ui-bundle.js`]: { type: 'text/javascript; charset=utf-8', body: bundle },
    [`${base}/swagger-ui.css`]: { type: 'text/css; charset=utf-8', body: css },
    [`${base}/init.js`]: { type: 'text/javascript; charset=utf-8', body: encoder.encode(init) },
  };
  // Swagger UI sets inline styles; scripts come only from this origin.
  const csp = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
  for (const [route, asset] of Object.entries(assets)) {
    app.addRawRoute('GET', route, () =>
      new Response(asset.body, {
        headers: { 'content-type': asset.type, 'cache-control': route === (base || '/') ? 'no-cache' : 'public, max-age=3600', 'content-security-policy': csp },
      }),
    );
  }
}
