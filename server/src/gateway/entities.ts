import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A partner platform allowed to issue guest JWTs for the workspace's events. Exactly one key source:
 * a JWKS URL or an SPKI PEM (RS256). Revoked rows stay (revokedAt set) and are never listed.
 */
export const GuestIntegration = defineEntity({
  name: 'GuestIntegration',
  tableName: 'guest_integration',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    issuer: p.text(),
    jwksUrl: p.text().nullable(),
    publicKeyPem: p.text().nullable(),
    createdAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
  }),
});
export type GuestIntegration = InferEntity<typeof GuestIntegration>;

export const gatewayEntities = [GuestIntegration];
