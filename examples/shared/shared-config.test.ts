import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/index.js';
import { BlogConfig } from '../blog/blog-config.js';
import { BusConfig } from './pubsub-from-env.js';
import { ServerConfig } from './run-app.js';
import { TelemetryConfig } from './telemetry.js';

describe('the examples\u2019 configurations', () => {
  it('ServerConfig: PORT and HOST default to 3000 and 127.0.0.1; a bad PORT is named', () => {
    expect(ServerConfig.load({})).toEqual({ PORT: 3000, HOST: '127.0.0.1' });
    expect(() => ServerConfig.load({ PORT: '70000' })).toThrow(/ServerConfig: 1 problem in the environment:\n {2}PORT: /);
  });

  it('BusConfig: both URLs optional; a URL of the wrong kind is named, its value (a password) never shown', () => {
    expect(BusConfig.load({})).toEqual({ REDIS_URL: undefined, DATABASE_URL: undefined });
    const error = (() => {
      try {
        BusConfig.load({ REDIS_URL: 'http://user:s3cret-pass@cache', DATABASE_URL: 'mysql://user:s3cret-pass@db/app' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual(['REDIS_URL', 'DATABASE_URL']);
    expect((error as Error).message).not.toContain('s3cret-pass');
  });

  it('TelemetryConfig: an empty exporter variable counts as unset (no SDK is loaded)', () => {
    expect(TelemetryConfig.load({ OTEL_TRACES_EXPORTER: '', OTEL_METRICS_EXPORTER: 'prometheus' })).toEqual({ OTEL_TRACES_EXPORTER: undefined, OTEL_METRICS_EXPORTER: 'prometheus' });
  });

  it('BlogConfig: CORS_ORIGINS is a list, ATTACHMENT_LIMIT_BYTES a positive whole number', () => {
    expect(BlogConfig.load({ CORS_ORIGINS: 'https://a.example, https://b.example' }).CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example']);
    expect(() => BlogConfig.load({ ATTACHMENT_LIMIT_BYTES: '0' })).toThrow(/ATTACHMENT_LIMIT_BYTES: /);
  });
});
