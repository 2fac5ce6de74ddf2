// Refresh rotation against the model, stores WITH the atomic `rotate` (with and without
// revokeFamily), grace 0 and 30 s. See rotation-properties.ts for what is asserted.
import { defineRotationProperties } from './rotation-properties.js';

defineRotationProperties('refresh rotation, stores with atomic rotate', [
  { rotate: true, revokeFamily: true, graceSeconds: 0 },
  { rotate: true, revokeFamily: true, graceSeconds: 30 },
  { rotate: true, revokeFamily: false, graceSeconds: 0 },
  { rotate: true, revokeFamily: false, graceSeconds: 30 },
]);
