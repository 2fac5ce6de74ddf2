import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import type { Schema } from '../routing/route.js';
import { createApp } from './create-app.js';
import { silentLogger } from '../logging/json-logger.js';

const record = { id: 'p1', title: 'Hello', secret: 'do-not-send', author: { name: 'Ada', passwordHash: '$argon2id$secret' } };

async function appAnswering(response: Schema, result: unknown) {
  const controller = defineController({ name: 'Posts', routes: () => ({ show: get('/', { response }, () => result as never) }) });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
}

const schemas: readonly [string, Schema, Schema][] = [
  ['valibot', v.object({ id: v.string(), title: v.string(), author: v.object({ name: v.string() }) }), v.object({ id: v.number() })],
  ['ArkType', type({ id: 'string', title: 'string', author: { name: 'string' } }), type({ id: 'number' })],
];

describe.each(schemas)('a %s response schema', (_vendor, Post, NumericId) => {
  it('sends the schema output: undeclared fields stripped at every depth', async () => {
    const response = await (await appAnswering(Post, record)).request('/');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ id: 'p1', title: 'Hello', author: { name: 'Ada' } });
    expect(text, 'an undeclared field was sent').not.toContain('do-not-send');
    expect(text, 'an undeclared nested field was sent').not.toContain('argon2id');
  });

  it('leaves a frozen result as it was, and still strips it', async () => {
    const frozen = Object.freeze({ ...record, author: Object.freeze({ ...record.author }) });
    const response = await (await appAnswering(Post, frozen)).request('/');
    expect(response.status, 'a frozen result could not be written').toBe(200);
    expect(await response.json()).toEqual({ id: 'p1', title: 'Hello', author: { name: 'Ada' } });
    expect(frozen.author.passwordHash, 'the handler\'s record was changed').toBe('$argon2id$secret');
  });

  it('refuses a result the schema refuses with a 500 that names no value', async () => {
    const response = await (await appAnswering(NumericId, { id: 'secret-value' })).request('/');
    expect(response.status).toBe(500);
    expect(await response.text(), 'the refused value reached the client').not.toContain('secret-value');
  });
});

describe('an async response schema', () => {
  it('is awaited before the answer is written', async () => {
    const Checked = v.pipeAsync(v.object({ id: v.string() }), v.checkAsync(async (value) => value.id !== 'banned', 'banned'));
    expect(await (await (await appAnswering(Checked, { id: 'ok', extra: 1 })).request('/')).json()).toEqual({ id: 'ok' });
    expect((await (await appAnswering(Checked, { id: 'banned' })).request('/')).status).toBe(500);
  });
});

describe('an ArkType response schema ArkType cannot make strip', () => {
  it('boots and sends what the type gives (a union of objects)', async () => {
    const Either = type({ a: 'string' }).or({ b: 'number' });
    const response = await (await appAnswering(Either, { a: 'x' })).request('/');
    expect(response.status, 'the app did not answer with the union as it is').toBe(200);
    expect(await response.json()).toEqual({ a: 'x' });
  });
});
