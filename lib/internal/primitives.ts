// Internal entry (not in the package's `exports`; names move between releases): small building
// blocks several satellites share: a checked clock, the numeric-option validator, base64, a
// bounded cache and a timer that does not hold the process open.
export { checkedClock, ClockError } from '../common/clock.js';
export { integerAtLeast } from '../common/integer-at-least.js';
export { encodeBase64, decodeBase64, type Base64Alphabet } from '../common/base64.js';
export { BoundedCache, type BoundedCacheOptions } from '../common/bounded-cache.js';
export { unrefTimer } from '../common/unref-timer.js';
export { importOptionalModule } from '../common/import-optional-module.js';
