import * as v from 'valibot';

// The blog's schemas (examples/blog/post-schemas.ts) in valibot: the same shapes and rules.
// valibot's object drops keys it does not name, as zod's does.

/** The input of `POST /posts`: a non-empty title and an optional body (default ''). */
export const CreatePost = v.object({
  title: v.pipe(v.string(), v.minLength(1)),
  body: v.optional(v.string(), ''),
});

/** The input of `PATCH /posts/:id`: the same fields, all optional; absent fields keep their value. */
export const UpdatePost = v.object({
  title: v.optional(v.pipe(v.string(), v.minLength(1))),
  body: v.optional(v.string()),
});

/** A stored post, as the API returns it. */
export const Post = v.object({
  id: v.string(),
  title: v.string(),
  body: v.string(),
  createdAt: v.string(),
});

/** The body of `GET /posts`. */
export const PostList = v.array(Post);
