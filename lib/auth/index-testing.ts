// What `tessera-http/testing` takes from the auth module: test scaffolding, not part of
// `tessera-http/auth` (issue 47). Not a package entry of its own; lib/testing re-exports it, and
// the layers test lets another room import auth only through its index files.
export { BasicInMemoryRefreshTokenStore } from './sessions/issuing/basic-in-memory-refresh-token-store.js';
