// The Redis entry point, `tessera-http/redis`: a PubSub engine and a rate-limit counter shared by
// every instance, through ioredis (a peer dependency: install it beside tessera-http). Explicit
// named exports only.
export { redisPubSub } from './redis-pub-sub.js';
export type { RedisPubSubOptions } from './redis-pub-sub.js';
export { RedisRateLimitCounter } from './redis-rate-limit-counter.js';
export type { RedisRateLimitCounterOptions } from './redis-rate-limit-counter.js';
export { redisHealthCheck } from './redis-health-check.js';
export { RedisIdempotencyStore } from './redis-idempotency-store.js';
export type { RedisIdempotencyStoreOptions } from './redis-idempotency-store.js';
