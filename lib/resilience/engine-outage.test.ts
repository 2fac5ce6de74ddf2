import { describe, expect, it } from 'vitest';
import { EngineOutage } from './engine-outage.js';
import { jsonLogger } from '../logging/json-logger.js';

function lines() {
  const written: Record<string, unknown>[] = [];
  return { written, logger: jsonLogger({ write: (line) => written.push(JSON.parse(line) as Record<string, unknown>) }) };
}

describe('EngineOutage', () => {
  it('logs one engine.lost line however many failures the outage holds, and one engine.back line with how long it lasted', () => {
    const { written, logger } = lines();
    let now = 1_000;
    const outage = new EngineOutage('redis', logger, { now: () => now });
    for (let attempt = 0; attempt < 20; attempt++) outage.lost(new Error('ECONNREFUSED'));
    now = 3_500;
    outage.back();
    outage.back();
    expect(written.map((line) => [line.level, line.event, line.engine])).toEqual([
      ['warn', 'engine.lost', 'redis'],
      ['info', 'engine.back', 'redis'],
    ]);
    expect(written[1]?.downMs, 'the return says how long the engine was away').toBe(2_500);
  });

  it('tells its listeners of each change, once', () => {
    const outage = new EngineOutage('bus', lines().logger);
    const seen: boolean[] = [];
    outage.onChange((up) => seen.push(up));
    outage.lost();
    outage.lost();
    outage.back();
    expect(seen).toEqual([false, true]);
    expect(outage.up).toBe(true);
  });

  it('an engine that starts down is not up, its first connection is not logged as a return, and a first connection that fails is logged as a loss', () => {
    const quiet = lines();
    const opening = new EngineOutage('listener', quiet.logger, { startsDown: true });
    expect(opening.up, 'not listening before the first connection').toBe(false);
    opening.back();
    expect(quiet.written, 'connecting at boot is not an outage').toEqual([]);
    const failing = lines();
    const refused = new EngineOutage('listener', failing.logger, { startsDown: true });
    refused.lost(new Error('ECONNREFUSED'));
    refused.back();
    expect(failing.written.map((line) => line.event)).toEqual(['engine.lost', 'engine.back']);
  });

  it('a listener that throws is logged and stops no other listener', () => {
    const { written, logger } = lines();
    const outage = new EngineOutage('bus', logger);
    const seen: boolean[] = [];
    outage.onChange(() => {
      throw new Error('listener bug');
    });
    outage.onChange((up) => seen.push(up));
    outage.lost();
    expect(seen).toEqual([false]);
    expect(written.some((line) => line.level === 'error'), 'the failing listener is reported').toBe(true);
  });
});
