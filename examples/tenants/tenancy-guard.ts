import { NotFoundException, type Guard, type RequestContext } from '../../lib/index.js';
import { auth } from './claims.js';

/**
 * Answers 404 for another tenant's data: the caller's `tenantId` claim must equal the
 * `:tenantId` path parameter. 404, not 403, so that tenants cannot probe each other's existence.
 * Runs after AuthGuard (which the app applies everywhere), so the user is in the context.
 */
export class TenancyGuard implements Guard {
  canActivate(ctx: RequestContext): boolean {
    const user = auth.getCurrentUser(ctx);
    const tenantId = ctx.params.tenantId;
    if (user === undefined || tenantId === undefined || user.tenantId !== tenantId) throw new NotFoundException('Not found');
    return true;
  }
}
