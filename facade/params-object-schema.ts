import type { Schema, StandardSchemaV1 } from '../lib/index.js';

type Result = StandardSchemaV1.Result<Record<string, unknown>>;

/**
 * One Standard Schema over a method's path parameters, from `@Param(name, schema)` schemas of
 * any library: each parameter parsed by its own schema (awaited when one is asynchronous), the
 * issues' paths led by the parameter's name, as a `z.object` of them would give. Used when some
 * of the schemas are not zod (a zod-only method gets a real `z.object`).
 *
 * @example
 * const params = paramsObjectSchema({ id: v.pipe(v.string(), v.transform(Number)) });
 */
export function paramsObjectSchema(shape: Readonly<Record<string, Schema>>): StandardSchemaV1<Record<string, string>, Record<string, unknown>> {
  const entries = Object.entries(shape);
  const combine = (results: readonly StandardSchemaV1.Result<unknown>[]): Result => {
    const issues: StandardSchemaV1.Issue[] = [];
    const value: Record<string, unknown> = {};
    results.forEach((result, index) => {
      const key = (entries[index] as [string, Schema])[0];
      if (result.issues) for (const issue of result.issues) issues.push({ message: issue.message, path: [key, ...(issue.path ?? [])], ...codeOf(issue) });
      else value[key] = result.value;
    });
    return issues.length > 0 ? { issues } : { value };
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'tessera',
      validate(input) {
        const record = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
        const results = entries.map(([key, schema]) => schema['~standard'].validate(record[key]));
        return results.some((result) => result instanceof Promise) ? Promise.all(results).then(combine) : combine(results as StandardSchemaV1.Result<unknown>[]);
      },
    },
  };
}

/** The library's own code of an issue (ArkType's `code`, valibot's `type`), kept for the 400 problem. */
function codeOf(issue: StandardSchemaV1.Issue): { code?: string; type?: string } {
  const vendor = issue as { code?: unknown; type?: unknown };
  return typeof vendor.code === 'string' ? { code: vendor.code } : typeof vendor.type === 'string' ? { type: vendor.type } : {};
}
