import { describeBlogChecks } from './blog-checks.js';
import * as arktype from './post-schemas.arktype.js';
import * as valibot from './post-schemas.valibot.js';
import { schemaBlog } from './schema-blog-module.js';

// Issue 39's proof on the reference app: the blog's schemas in valibot and in ArkType answer the
// blog's checks exactly as the zod blog does (examples/blog/blog.test.ts runs the same checks).

describeBlogChecks('blog API with valibot schemas', schemaBlog(valibot));
describeBlogChecks('blog API with ArkType schemas', schemaBlog(arktype));
