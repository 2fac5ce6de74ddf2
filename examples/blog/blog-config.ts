import { z } from 'zod';
import { defineConfig } from '../../lib/index.js';
import { DEFAULT_ATTACHMENT_LIMIT } from './blog-extras.js';

/**
 * What `npm start` reads from the environment for the blog: `CORS_ORIGINS`, comma-separated
 * origins allowed to call the API from a browser (CORS is off without it), and
 * `ATTACHMENT_LIMIT_BYTES`, the largest attachment upload (default 1 MiB).
 *
 * @example
 * const { CORS_ORIGINS, ATTACHMENT_LIMIT_BYTES } = BlogConfig.load({ CORS_ORIGINS: 'http://localhost:5173' });
 */
export const BlogConfig = defineConfig(
  z.object({
    CORS_ORIGINS: z
      .string()
      .optional()
      .transform((value) => (value ?? '').split(',').map((origin) => origin.trim()).filter((origin) => origin !== '')),
    ATTACHMENT_LIMIT_BYTES: z.coerce.number().int().positive().default(DEFAULT_ATTACHMENT_LIMIT),
  }),
  { name: 'BlogConfig' },
);
