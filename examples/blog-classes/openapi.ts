// The class-style blog describes the same API as the builder blog, with the same options, so
// `GET /openapi.json` serves an identical document (test/openapi/blog-openapi.test.ts).
export { BLOG_OPENAPI_OPTIONS, serveBlogOpenApi } from '../blog/openapi.js';
