// Refresh rotation against the model, stores WITHOUT `rotate` (successor first, then the
// markRotated compare-and-set), with and without revokeFamily, grace 0 and 30 s. See
// rotation-properties.ts for what is asserted.
import { defineRotationProperties } from './rotation-properties.js';

defineRotationProperties('refresh rotation, stores without rotate (successor first)', [
  { rotate: false, revokeFamily: true, graceSeconds: 0 },
  { rotate: false, revokeFamily: true, graceSeconds: 30 },
  { rotate: false, revokeFamily: false, graceSeconds: 0 },
  { rotate: false, revokeFamily: false, graceSeconds: 30 },
]);
