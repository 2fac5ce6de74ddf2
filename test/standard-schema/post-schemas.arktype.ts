import { type } from 'arktype';

// The blog's schemas (examples/blog/post-schemas.ts) in ArkType: the same shapes and rules.
// ArkType keeps keys an object does not name unless told otherwise; `'+': 'delete'` drops them,
// as zod's and valibot's objects do (an update must not carry `id` or `createdAt` through).

/** The input of `POST /posts`: a non-empty title and an optional body (default ''). */
export const CreatePost = type({
  '+': 'delete',
  title: 'string > 0',
  body: 'string = ""',
});

/** The input of `PATCH /posts/:id`: the same fields, all optional; absent fields keep their value. */
export const UpdatePost = type({
  '+': 'delete',
  'title?': 'string > 0',
  'body?': 'string',
});

/** A stored post, as the API returns it. */
export const Post = type({
  '+': 'delete',
  id: 'string',
  title: 'string',
  body: 'string',
  createdAt: 'string',
});

/** The body of `GET /posts`. */
export const PostList = Post.array();
