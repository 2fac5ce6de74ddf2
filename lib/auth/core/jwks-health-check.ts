import type { HealthCheck } from '../../index.js';
import type { BearerTokenVerifier } from '../credentials/jwt/index.js';

/**
 * The readiness check of the trusted issuers' keys, named `jwks`: up when every trusted issuer
 * has keys to verify with. An issuer whose JWKS endpoint never answered is asked once (its
 * cooldown permitting, so probes cannot hammer the provider) and counts as down until it answers.
 * A key set fetched once stays "up" through a later outage of the provider, because tokens keep
 * verifying with it: taking every instance out of the balancer then would turn a provider's
 * outage into a total one. The error names the issuers, never a key or a token.
 *
 * @example
 * const auth = defineAuthModule(Claims);
 * createApp(AppModule, { health: { checks: [auth.JWKS_HEALTH_CHECK] } });
 */
export function jwksHealthCheck(verifier: Pick<BearerTokenVerifier, 'issuersWithoutKeys'>): HealthCheck {
  return {
    name: 'jwks',
    async check() {
      const missing = await verifier.issuersWithoutKeys();
      if (missing.length > 0) throw new Error(`No keys from the JWKS of ${missing.map((issuer) => JSON.stringify(issuer)).join(', ')}`);
    },
  };
}
