import { z } from 'zod';
import { defineAuthModule } from '../../lib/auth/index.js';

/** The claims of the tenants app: who, which roles, which tenant. */
export const Claims = z.object({
  sub: z.string(),
  roles: z.array(z.string()),
  tenantId: z.string(),
});
export type Claims = z.output<typeof Claims>;

/** The auth module bound to these claims; defined once for the app. */
export const auth = defineAuthModule(Claims);
