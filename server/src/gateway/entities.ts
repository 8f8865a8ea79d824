import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A partner platform allowed to issue guest JWTs for the workspace's events. Exactly one key source:
 * a JWKS URL or an SPKI PEM (RS256). Revoked rows stay (revokedAt set) and are never listed.
 */
export const GuestIntegration = defineEntity({
  name: 'GuestIntegration',
  tableName: 'guest_integration',
  indexes: [
    {
      name: 'guest_integration_active_issuer_idx',
      expression:
        'CREATE INDEX guest_integration_active_issuer_idx ON public.guest_integration USING btree (workspace_id, issuer) WHERE (revoked_at IS NULL)',
    },
    { name: 'guest_integration_workspace_created_idx', properties: ['workspaceId', 'createdAt', 'id'] },
  ],
  checks: [
    {
      name: 'guest_integration_issuer_check',
      expression: '(length(issuer) >= 1) AND (length(issuer) <= 500)',
    },
    {
      name: 'guest_integration_one_key_source',
      expression: '(jwks_url IS NULL) <> (public_key_pem IS NULL)',
    },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    issuer: p.text(),
    jwksUrl: p.text().nullable(),
    publicKeyPem: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    revokedAt: p.datetime().nullable(),
  }),
});
export type GuestIntegration = InferEntity<typeof GuestIntegration>;

/** The gateway token signing keys; the newest of a purpose signs, every one not yet expired verifies. */
export const SigningKey = defineEntity({
  name: 'SigningKey',
  tableName: 'signing_key',
  indexes: [
    {
      name: 'signing_key_purpose_created_idx',
      expression:
        'CREATE INDEX signing_key_purpose_created_idx ON public.signing_key USING btree (purpose, created_at DESC)',
    },
  ],
  properties: (p) => ({
    kid: p.text().primary(),
    purpose: p.enum(['gateway'] as const),
    algorithm: p.text(),
    privateJwk: p.json<Record<string, unknown>>(),
    publicJwk: p.json<Record<string, unknown>>(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type SigningKey = InferEntity<typeof SigningKey>;

/** Bumped when a user's role changes, so tokens minted before the change are refused. */
export const ParticipantRoleEpoch = defineEntity({
  name: 'ParticipantRoleEpoch',
  tableName: 'participant_role_epoch',
  properties: (p) => ({
    userId: p.uuid().primary(),
    workspaceId: p.uuid(),
    epoch: p.bigint('string'),
  }),
});
export type ParticipantRoleEpoch = InferEntity<typeof ParticipantRoleEpoch>;

/** A personal join link for an event's live room; only the SHA-256 of its code is kept. */
export const LiveJoinLink = defineEntity({
  name: 'LiveJoinLink',
  tableName: 'live_join_link',
  indexes: [{ name: 'live_join_link_event_idx', properties: ['eventId', 'createdAt'] }],
  uniques: [{ name: 'live_join_link_code_hash_key', properties: ['codeHash'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    eventId: p.uuid(),
    codeHash: p.text(),
    userId: p.uuid().nullable(),
    registrationId: p.uuid().nullable(),
    participantId: p.text(),
    name: p.text().nullable(),
    role: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    revokedAt: p.datetime().nullable(),
  }),
});
export type LiveJoinLink = InferEntity<typeof LiveJoinLink>;

export const gatewayEntities = [GuestIntegration, SigningKey, ParticipantRoleEpoch, LiveJoinLink];
