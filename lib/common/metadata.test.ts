import { describe, expect, it } from 'vitest';
import { createMetadataKey, metadataRecord, readRouteMetadata } from './metadata.js';

const REPLACED = createMetadataKey<readonly string[]>('test:replaced');
const APPENDED = createMetadataKey<readonly string[]>('test:appended', { combine: 'append' });
const MERGED = createMetadataKey<{ a?: number; b?: number }>('test:merged', { combine: 'merge' });

const route = (own: Parameters<typeof metadataRecord>[0], inherited: Parameters<typeof metadataRecord>[0]) => ({
  metadata: metadataRecord(own),
  controllerMetadata: metadataRecord(inherited),
});

describe('readRouteMetadata combines route and controller values as the key declares', () => {
  it('replace (the default): the route value wins, else the controller value', () => {
    expect(REPLACED.combine).toBe('replace');
    expect(readRouteMetadata(route([REPLACED.with(['r'])], [REPLACED.with(['c'])]), REPLACED)).toEqual(['r']);
    expect(readRouteMetadata(route([], [REPLACED.with(['c'])]), REPLACED)).toEqual(['c']);
    expect(readRouteMetadata(route([], []), REPLACED)).toBeUndefined();
  });

  it('append: controller values first, then the route\u2019s', () => {
    expect(readRouteMetadata(route([APPENDED.with(['r'])], [APPENDED.with(['c'])]), APPENDED)).toEqual(['c', 'r']);
    expect(readRouteMetadata(route([APPENDED.with(['r'])], []), APPENDED)).toEqual(['r']);
  });

  it('merge: the route\u2019s fields over the controller\u2019s', () => {
    expect(readRouteMetadata(route([MERGED.with({ b: 2 })], [MERGED.with({ a: 1, b: 1 })]), MERGED)).toEqual({ a: 1, b: 2 });
  });
});
