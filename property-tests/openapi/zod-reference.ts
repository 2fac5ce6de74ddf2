import { z } from 'zod';
import type { SchemaSide } from '../../lib/internal/schema.js';

/** zod's own result for a schema, or the error it threw: the oracle for the fast converter. */
export type Reference = { json: Record<string, unknown>; problems: string[] } | { error: string };

/** zod's conversion, called the way `schema-conversion.ts` calls it, `$schema` removed. */
export function zodReference(schema: z.ZodType, io: SchemaSide): Reference {
  const problems: string[] = [];
  try {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: ({ zodSchema, message }) => {
        if (zodSchema._zod.def.type !== 'date') problems.push(message);
        return 'any';
      },
      override: ({ zodSchema, jsonSchema }) => {
        if (zodSchema._zod.def.type === 'date') {
          jsonSchema.type = 'string';
          jsonSchema.format = 'date-time';
        }
      },
    }) as Record<string, unknown>;
    delete json.$schema;
    return { json, problems };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
