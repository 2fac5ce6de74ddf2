// Internal entry (not in the package's `exports`; names move between releases): what the engine
// packages (PostgreSQL, Redis) build their buses and counters on: the topic table every engine
// keeps, outage reporting, the heartbeat, time bounds and the fixed-window rule.
export { TopicTable, type TopicUpstream } from '../pubsub/topic-table.js';
export { callHandler } from '../pubsub/pub-sub.js';
export { EngineOutage } from '../resilience/engine-outage.js';
export { within, TIMED_OUT } from '../resilience/within.js';
export { startHeartbeat } from '../resilience/heartbeat.js';
export { FixedWindowRule } from '../rate-limit/fixed-window-rule.js';
