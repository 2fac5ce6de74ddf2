import { describe, expect, it } from 'vitest';
import { createApp, createManualClock } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { BLOG_T0, describeBlogChecks } from '../../test/standard-schema/blog-checks.js';
import { createBlogModule } from './blog-module.js';

// The blog's API checks live in test/standard-schema/blog-checks.ts, shared with the blog's
// schemas rewritten in valibot and ArkType (test/standard-schema/blog-validators.test.ts).

async function blog() {
  const clock = createManualClock(BLOG_T0);
  return { app: await createApp(createBlogModule({ clock })), clock };
}

describeBlogChecks('blog API (SPEC: Blog API)', blog);

describe('blog API with zod', () => {
  it('answers 400 with zod issue codes', async () => {
    const { app } = await blog();
    const missing = await send(app, 'POST', '/posts', { json: { body: 'no title' } });
    const issues = (missing.json as { issues: { path: unknown[]; code: string }[] }).issues;
    expect(issues, "zod's code for a missing title").toEqual([expect.objectContaining({ path: ['title'], code: 'invalid_type' })]);
    const empty = await send(app, 'POST', '/posts', { json: { title: '' } });
    expect((empty.json as { issues: { code: string }[] }).issues[0]?.code, "zod's code for an empty title").toBe('too_small');
  });
});
