/**
 * Whether this is the Node-specific run (`npm run test:node`, which CI runs on each Node version
 * besides the newest): tests whose outcome does not depend on the Node version (type checks of
 * the packed package, publint, attw) are then skipped, as the full run on the newest version has
 * made them, so that CI stays within its time on 2 cores.
 *
 * @example
 * it.skipIf(nodeSpecificRun)('passes publint', async () => { ... });
 */
export const nodeSpecificRun = process.env.TESSERA_TEST_NODE_SPECIFIC === '1';
