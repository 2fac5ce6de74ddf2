import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createBlogModule } from '../../../examples/blog/blog-module.js';
import { createApp } from '../../../lib/index.js';
import { exampleDocuments } from '../lint/example-documents.js';
import { createBlogClient, createTitledPost, readPost, renamePost } from './blog-client.js';

const here = import.meta.dirname;
const run = promisify(execFile);

describe('a client generated from the blog document with openapi-typescript and used with openapi-fetch', () => {
  it('blog-api.generated.ts is exactly what openapi-typescript (default options) makes of the current document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-client-'));
    try {
      const { blog } = await exampleDocuments();
      writeFileSync(join(dir, 'blog.json'), JSON.stringify(blog));
      await run(join(here, '..', '..', '..', 'node_modules', '.bin', 'openapi-typescript'), [join(dir, 'blog.json'), '-o', join(dir, 'blog-api.ts')], { timeout: 60_000 });
      expect(readFileSync(join(dir, 'blog-api.ts'), 'utf8'), 'regenerate with: npx openapi-typescript <blog document> -o test/openapi/client/blog-api.generated.ts').toBe(
        readFileSync(join(here, 'blog-api.generated.ts'), 'utf8'),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates a post without `body` (it has a default) and reads it back', async () => {
    const app = await createApp(createBlogModule());
    const client = createBlogClient('http://blog.test', (request) => app.fetch(request));
    const created = await createTitledPost(client, 'Hello');
    expect(created.response.status, 'POST /posts answers 201').toBe(201);
    expectTypeOf(created.data).toEqualTypeOf<{ id: string; title: string; body: string; createdAt: string } | undefined>();
    expect(created.data).toMatchObject({ id: '1', title: 'Hello', body: '' });
    const read = await readPost(client, '1');
    expect(read.data).toEqual(created.data);
  });

  it('updates through PATCH and reads a 404 as a typed problem', async () => {
    const app = await createApp(createBlogModule());
    const client = createBlogClient('http://blog.test', (request) => app.fetch(request));
    await createTitledPost(client, 'Hello');
    const renamed = await renamePost(client, '1', 'Renamed');
    expect(renamed.data?.title).toBe('Renamed');
    const missing = await readPost(client, '99');
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, title: 'Not Found' });
  });
});
