// Types of schemas.mjs for the TypeScript Tessera servers.
import type { z } from 'zod';

export declare const CreatePost: z.ZodObject<{ title: z.ZodString; body: z.ZodDefault<z.ZodString> }>;
export declare const Claims: z.ZodObject<{ sub: z.ZodString; roles: z.ZodArray<z.ZodString> }>;
