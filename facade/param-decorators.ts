import type { Schema } from '../lib/index.js';
import { methodRecord, type ParamSource } from './class-store.js';

function paramDecorator(source: ParamSource): ParameterDecorator {
  return (target, propertyKey, index) => {
    if (propertyKey === undefined) throw new TypeError('Param, Body, Query and Ctx are for route method parameters; use @Inject in constructors.');
    const params = methodRecord(target, propertyKey).params;
    if (params[index]) throw new Error(`Parameter #${index} of ${String(propertyKey)} has two source decorators.`);
    params[index] = source;
  };
}

/**
 * A path parameter, URL-decoded; with `schema` (a schema for this one parameter: zod, valibot,
 * ArkType or any Standard Schema), parsed by it
 * first, as NestJS's `ParseIntPipe` would: the route gets the `params` option `defineController`
 * would take, a `z.object` of every `@Param` schema of the method, so a failure is the same 400
 * validation problem (issue path `['id']`), checked after the guards, and OpenAPI shows the schema.
 * Annotate the parameter with the schema's output type (decorators do not reach types).
 *
 * @example
 * @Get(':id') show(@Param('id') id: string) { return this.store.get(id); }
 * @Get(':id') one(@Param('id', z.coerce.number().int()) id: number) { return this.store.byNumber(id); }
 */
export function Param(name: string, schema?: Schema): ParameterDecorator {
  return paramDecorator({ kind: 'param', name, schema });
}

/**
 * The JSON body, validated by `schema` (any Standard Schema: zod, valibot, ArkType, ...) before
 * the method runs (400 with the issues on failure).
 * TypeScript's parameter decorators cannot see the parameter's type, so annotate it with the
 * schema's output type (`z.output<typeof Schema>`, `SchemaOutput<typeof Schema>` for any library);
 * a mismatch is not caught at compile time.
 *
 * @example
 * @Post() create(@Body(CreatePost) input: z.output<typeof CreatePost>) { return this.store.create(input); }
 */
export function Body(schema: Schema): ParameterDecorator {
  return paramDecorator({ kind: 'body', schema });
}

/**
 * The query: validated by `schema` when given, else the parsed query string (repeated keys as arrays).
 *
 * @example
 * @Get() list(@Query(Paging) paging: z.output<typeof Paging>) { return this.store.page(paging); }
 */
export function Query(schema?: Schema): ParameterDecorator {
  return paramDecorator({ kind: 'query', schema });
}

/**
 * The request context: headers, client address, state set by guards, the abort signal.
 *
 * @example
 * @Get('me') me(@Ctx() ctx: RequestContext) { return getCurrentUser(ctx); }
 */
export function Ctx(): ParameterDecorator {
  return paramDecorator({ kind: 'context' });
}
