// The GET /me scenario for Tessera: `tessera-http/auth`'s JwtAuthGuard and getCurrentUser.
import { defineController, defineModule, get, type ModuleDefinition } from '../../lib/index.js';
import { defineAuthModule } from '../../lib/auth/index.js';
import { Claims } from './schemas.mjs';
import { JWT_SECRET } from './shared.mjs';

export function meModule(): ModuleDefinition {
  const { AuthModule, JwtAuthGuard, getCurrentUser } = defineAuthModule(Claims);
  const controller = defineController({
    name: 'MeController',
    routes: () => ({ me: get('/me', { guards: [JwtAuthGuard] }, (ctx) => getCurrentUser(ctx)) }),
  });
  return defineModule({ name: 'BenchModule', imports: [AuthModule.forRoot({ secret: JWT_SECRET })], controllers: [controller] });
}
