import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, type RouteDefinition } from '../../lib/index.js';
import { fastToJsonSchema, fastUnsupportedReason } from '../../lib/openapi/fast-conversion/index.js';
import type { SchemaSide } from '../../lib/internal/schema.js';
import { generateOpenApiDocument } from '../../lib/openapi/index.js';
import { useFastConversion } from '../../lib/openapi/schema-conversion.js';
import { buildCase, exactDifference, schemaCase, type SchemaCase } from './zod-schema-arbitraries.js';
import { zodReference } from './zod-reference.js';

/**
 * The fast converter must give exactly what zod gives with the framework's options
 * (`schema-conversion.ts`): same keywords, values, key order and defs, on both sides, whenever it
 * does not hand the schema to zod. And whenever it converts a schema, zod must find nothing
 * unrepresentable in it (the framework reports those, so they must go through zod).
 */

const SIDES: SchemaSide[] = ['input', 'output'];

/**
 * Exact comparison: the root, key order included at every level, and each def (the fast path
 * fills `$defs` in another order, which nothing reads). zod's root also carries a
 * non-enumerable `~standard`, left out.
 */
function expectSame(fast: Record<string, unknown>, reference: Record<string, unknown>): void {
  const { $defs: fastDefs = {}, ...fastRoot } = fast as { $defs?: Record<string, unknown> };
  const { $defs: zodDefs = {}, ...zodRoot } = reference as { $defs?: Record<string, unknown> };
  expect(JSON.stringify(fastRoot)).toBe(JSON.stringify(zodRoot));
  expect(exactDifference(fastRoot, zodRoot)).toBeUndefined();
  expect(Object.keys(fastDefs).sort()).toEqual(Object.keys(zodDefs).sort());
  for (const name of Object.keys(zodDefs)) expect(exactDifference(fastDefs[name], zodDefs[name], `$defs.${name}`)).toBeUndefined();
}

/** Checks one case on both sides; returns how each side went. */
function checkCase(sample: SchemaCase): ('fast' | 'fallback')[] {
  const { root } = buildCase(sample);
  return SIDES.map((side) => {
    const fast = fastToJsonSchema(root, side);
    if (fast === undefined) return 'fallback';
    const reference = zodReference(root, side);
    if ('error' in reference) throw new Error(`fast path converted a schema zod rejects (${side}): ${reference.error}`);
    expect(reference.problems, `zod finds unrepresentable parts the fast path converted (${side})`).toEqual([]);
    expectSame(fast, reference.json);
    return 'fast';
  });
}

describe('fast conversion is equivalent to zod', () => {
  it('on random schemas of the supported subset, with unsupported parts sprinkled in', () => {
    const counts = { fast: 0, fallback: 0 };
    fc.assert(
      fc.property(schemaCase({ unsupported: true }), (sample) => {
        for (const outcome of checkCase(sample)) counts[outcome]++;
      }),
      { numRuns: 3000 },
    );
    // Both paths must actually be exercised.
    expect(counts.fast).toBeGreaterThan(1200);
    expect(counts.fallback).toBeGreaterThan(600);
  });

  it('handles every schema of the supported subset itself (no silent fallback)', () => {
    fc.assert(
      fc.property(schemaCase({ unsupported: false }), (sample) => {
        const { root } = buildCase(sample);
        for (const side of SIDES) expect(fastUnsupportedReason(root, side)).toBeUndefined();
        expect(checkCase(sample)).toEqual(['fast', 'fast']);
      }),
      { numRuns: 2000 },
    );
  });

  it('on deep schemas', () => {
    fc.assert(
      fc.property(schemaCase({ unsupported: false, maxDepth: 7 }), (sample) => {
        checkCase(sample);
      }),
      { numRuns: 400 },
    );
  });
});

describe('documents are the same with and without the fast converter', () => {
  /**
   * Several cases in one app (bodies, queries, responses), ids shared between cases now and then,
   * so fast and zod conversions meet in one document, with clashing ids, cycles and problems.
   */
  const appCases = fc.array(fc.tuple(schemaCase({ unsupported: true }), fc.boolean()), { minLength: 1, maxLength: 4 });

  async function documentOf(cases: readonly [SchemaCase, boolean][], fast: boolean) {
    const routes: Record<string, RouteDefinition> = {};
    cases.forEach(([sample, shareIds], index) => {
      // Ids are per case unless shared: shared ones clash with other cases' different schemas.
      const named = shareIds ? sample.named : sample.named.map((entry) => ({ ...entry, id: `C${index}${entry.id}` }));
      const body = buildCase({ ...sample, named });
      const response = buildCase({ ...sample, named });
      routes[`create${index}`] = post(`/r${index}`, { body: body.root, response: response.root }, () => undefined);
      routes[`list${index}`] = get(`/r${index}`, { query: body.root, response: z.array(response.named[0] ?? response.root) }, () => undefined);
    });
    const controller = defineController({ name: 'CasesController', prefix: '/cases', routes: () => routes });
    const app = await createApp(defineModule({ name: 'CasesModule', controllers: [controller] }));
    const warnings: string[] = [];
    const previous = useFastConversion(fast);
    try {
      const doc = generateOpenApiDocument(app, { title: 'Cases', version: '1', onUnrepresentable: 'warn', warn: (message) => warnings.push(message) });
      return { text: JSON.stringify(doc), doc, warnings };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error), warnings };
    } finally {
      useFastConversion(previous);
    }
  }

  it('same document text and same reports', async () => {
    await fc.assert(
      fc.asyncProperty(appCases, async (cases) => {
        const slow = await documentOf(cases, false);
        const fast = await documentOf(cases, true);
        expect(exactDifference(fast, slow)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});
