import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** An invitation to a workspace or an event; only the SHA-256 of its token is kept. */
export const Invite = defineEntity({
  name: 'Invite',
  tableName: 'invite',
  indexes: [
    {
      name: 'invite_event_idx',
      expression:
        'CREATE INDEX invite_event_idx ON public.invite USING btree (event_id) WHERE (event_id IS NOT NULL)',
    },
    {
      name: 'invite_workspace_idx',
      expression:
        'CREATE INDEX invite_workspace_idx ON public.invite USING btree (workspace_id, created_at DESC)',
    },
  ],
  uniques: [{ name: 'invite_token_hash_key', properties: ['tokenHash'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    kind: p.enum(['workspace', 'event'] as const),
    email: p.text().nullable(),
    role: p.text(),
    eventId: p.uuid().nullable(),
    tokenHash: p.text(),
    status: p.enum(['pending', 'accepted', 'revoked'] as const).defaultRaw("'pending'"),
    invitedByAccountId: p.uuid().nullable(),
    acceptedByAccountId: p.uuid().nullable(),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Invite = InferEntity<typeof Invite>;

export const inviteEntities = [Invite];
