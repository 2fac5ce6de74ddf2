import { z } from 'zod';
import { BadRequestException, defineController, ForbiddenException, NotFoundException, type Guard, type RequestContext } from '../../lib/index.js';
import { InvalidCidrError, NoStore, parseAllowedCidrs, RequireStepUp, Roles } from '../../lib/auth/index.js';
import { ApiResponse } from '../../lib/openapi/index.js';
import { auth } from './claims.js';
import { FORBIDDEN, IDEMPOTENT_CREATE, NOT_FOUND, STEP_UP, TOKEN_ONLY, UNAUTHORIZED } from './openapi.js';
import { Idempotent } from './idempotency.js';
import { TenancyGuard } from './tenancy-guard.js';
import { TENANT_KEYS } from './tenant-api-keys.js';

/** Keys never manage keys: creating, listing and revoking need a signed-in person. */
class TokenOnlyGuard implements Guard {
  canActivate(ctx: RequestContext): boolean {
    if (auth.getCurrentApiKey(ctx) !== undefined) throw new ForbiddenException('API keys cannot manage API keys');
    return true;
  }
}

const CreateApiKey = z.object({
  name: z.string().min(1).max(100),
  scopes: z.array(z.enum(['posts:read', 'posts:write'])).max(10),
  expiresAt: z.iso.datetime({ offset: true }).optional(),
  allowedCidrs: z.array(z.string().max(64)).max(32).optional(),
});

/** API keys of a tenant; only its owners, signed in with a token, may manage them. */
export const apiKeysController = defineController({
  name: 'ApiKeysController',
  prefix: '/tenants/:tenantId/api-keys',
  inject: [TENANT_KEYS, auth.CREDENTIAL_REVOCATION, auth.SECURITY_EVENTS],
  guards: [TokenOnlyGuard, TenancyGuard],
  metadata: [Roles('owner'), TOKEN_ONLY, UNAUTHORIZED, FORBIDDEN, NOT_FOUND],
  // The helpers after the dependencies are bound to the prefix: ctx.params has tenantId, typed.
  routes: (keys, revocation, securityEvents, { get, post, del }) => ({
    // NoStore first: the answer (and an idempotent replay of it) shows the key once; no cache may keep it.
    // Step-up: a second factor (or, without one, a sign-in) within STEP_UP_SECONDS; else a 401 problem naming the step.
    create: post('/', { body: CreateApiKey, status: 201, guards: [auth.StepUpGuard], interceptors: [NoStore, Idempotent], metadata: [...IDEMPOTENT_CREATE, STEP_UP, RequireStepUp()] }, async (ctx) => {
      let allowedCidrs: string[];
      try {
        allowedCidrs = parseAllowedCidrs(ctx.body.allowedCidrs);
      } catch (error) {
        // The message names the network probably meant (10.1.2.3/24 -> 10.1.2.0/24); it is safe to show.
        if (error instanceof InvalidCidrError) throw new BadRequestException(error.message);
        throw error;
      }
      const expiresAt = ctx.body.expiresAt === undefined ? null : new Date(ctx.body.expiresAt);
      const created = await keys.create({ tenantId: ctx.params.tenantId, name: ctx.body.name, scopes: ctx.body.scopes, expiresAt, allowedCidrs });
      // A security event: the key's id and who created it, never the key.
      securityEvents.record({ type: 'api-key.created', keyId: created.id, subject: auth.getCurrentUser(ctx)?.sub });
      return created;
    }),
    list: get('/', (ctx) => keys.listForTenant(ctx.params.tenantId)),
    revoke: del('/:id', { metadata: [ApiResponse({ status: 204, description: 'Revoked; the record stays' })] }, async (ctx) => {
      if (!(await keys.revokeForTenant(ctx.params.tenantId, ctx.params.id))) throw new NotFoundException('No such API key');
      // Every instance drops its cached record now, not after API_KEY_CACHE_SECONDS. The revocation
      // itself is in the store already: a bus that fails only delays it to the cache's TTL elsewhere.
      await revocation.apiKeyRevoked(ctx.params.id).catch((error: unknown) => ctx.log.warn({ err: error, keyId: ctx.params.id }, 'Publishing an API-key revocation failed'));
    }),
  }),
});
