import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A participant identity in a workspace: pre-provisioned by `externalSub` (POST /v1/users), or
 * bridged from an account (`externalSub` = `account:<accountId>`) by the workspace session bridge.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    externalSub: p.text(),
    accountId: p.uuid().nullable(),
    email: p.text().nullable(),
    name: p.text().nullable(),
    picture: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
export type User = InferEntity<typeof User>;
