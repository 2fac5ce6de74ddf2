import { z } from 'zod';

/** The input of `POST /posts`: a non-empty title and an optional body (default ''). */
export const CreatePost = z
  .object({
    title: z.string().min(1),
    body: z.string().default(''),
  })
  .meta({ id: 'CreatePost' });

/** The input of `PATCH /posts/:id`: the same fields, all optional; absent fields keep their value. */
export const UpdatePost = z
  .object({
    title: z.string().min(1).optional(),
    body: z.string().optional(),
  })
  .meta({ id: 'UpdatePost' });

/** A stored post, as the API returns it. Never accepted as input. */
export const Post = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: 'Post' });

/** The body of `GET /posts`. */
export const PostList = z.array(Post);

export type CreatePost = z.output<typeof CreatePost>;
export type UpdatePost = z.output<typeof UpdatePost>;
export type Post = z.output<typeof Post>;
