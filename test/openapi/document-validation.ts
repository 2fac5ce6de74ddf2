import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema, OpenApiDocument } from '../../lib/openapi/index.js';

const COMPONENTS_ID = 'urn:tessera:components';

/** Every schema of a document with where it sits: components, parameters, bodies, responses. */
export function collectSchemas(doc: OpenApiDocument): { where: string; schema: JsonSchema }[] {
  const found: { where: string; schema: JsonSchema }[] = [];
  for (const [name, schema] of Object.entries(doc.components.schemas)) found.push({ where: `components.schemas.${name}`, schema });
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) found.push({ where: `${at} parameter ${p.name}`, schema: p.schema });
      for (const [media, m] of Object.entries(op.requestBody?.content ?? {})) if (m.schema) found.push({ where: `${at} body ${media}`, schema: m.schema });
      for (const [status, r] of Object.entries(op.responses)) {
        for (const [media, m] of Object.entries(r.content ?? {})) if (m.schema) found.push({ where: `${at} ${status} ${media}`, schema: m.schema });
      }
    }
  }
  return found;
}

/** Rewrites document refs so that Ajv finds components under a registered schema id. */
function retarget(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(retarget);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`) : retarget(v),
    ]),
  );
}

/**
 * Checks a document the way the issue asks: the OpenAPI 3.1 structural validator says valid, and
 * every schema compiles as JSON Schema 2020-12 under Ajv's strict mode, with the components
 * available for `$ref`. Returns the list of failures (empty when all is well).
 */
export async function validateDocument(doc: OpenApiDocument): Promise<string[]> {
  const failures: string[] = [];
  const validator = new Validator();
  const result = await validator.validate(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>);
  if (!result.valid) failures.push(`OpenAPI validator: ${JSON.stringify(result.errors, null, 2)}`);

  // strict: true turns on strictSchema/strictTypes/strictTuples/strictRequired. Union types
  // (`type: ['string', 'null']`, zod's nullable) are valid 2020-12 that strictTypes would
  // otherwise flag; formats are annotations in 2020-12, so they are not validated here.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false });
  try {
    ajv.addSchema({ $id: COMPONENTS_ID, $defs: retarget(doc.components.schemas) as Record<string, unknown> });
  } catch (error) {
    failures.push(`components: ${(error as Error).message}`);
    return failures;
  }
  for (const { where, schema } of collectSchemas(doc)) {
    const target = where.startsWith('components.schemas.')
      ? { $ref: `${COMPONENTS_ID}#/$defs/${where.slice('components.schemas.'.length)}` }
      : retarget(schema);
    try {
      ajv.compile(target as object);
    } catch (error) {
      failures.push(`${where}: ${(error as Error).message}`);
    }
  }
  return failures;
}
