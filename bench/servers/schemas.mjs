// The zod schemas of the benchmark, shared by every server (imported lazily: see shared.mjs).
import { z } from 'zod';

/** The body schema of `POST /posts`, validated by hand (or by Tessera's `body:`) in every framework. */
export const CreatePost = z.object({ title: z.string().min(1), body: z.string().default('') });

/** The claims schema of the `GET /me` scenario. */
export const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
