import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * A participant identity in a workspace: pre-provisioned by `externalSub` (POST /v1/users), or
 * bridged from an account (`externalSub` = `account:<accountId>`) by the workspace session bridge.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  indexes: [
    {
      name: 'app_user_account_idx',
      expression:
        'CREATE UNIQUE INDEX app_user_account_idx ON public.app_user USING btree (workspace_id, account_id) WHERE (account_id IS NOT NULL)',
    },
  ],
  uniques: [{ name: 'app_user_workspace_id_external_sub_key', properties: ['workspaceId', 'externalSub'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    externalSub: p.text(),
    accountId: p.uuid().nullable(),
    email: p.text().nullable(),
    name: p.text().nullable(),
    picture: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type User = InferEntity<typeof User>;

/** A user's stored role on one event (at most one per user and event). */
export const EventMembership = defineEntity({
  name: 'EventMembership',
  tableName: 'event_membership',
  indexes: [{ name: 'event_membership_user_idx', properties: ['userId'] }],
  uniques: [{ name: 'event_membership_event_id_user_id_key', properties: ['eventId', 'userId'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    userId: p.uuid(),
    role: p.enum(['host', 'speaker', 'participant', 'viewer', 'workspace_admin'] as const),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type EventMembership = InferEntity<typeof EventMembership>;

/** Q&A: questions arrive over the live gateway; votes are one per voter key. */
export const Question = defineEntity({
  name: 'Question',
  tableName: 'question',
  indexes: [{ name: 'question_event_idx', properties: ['eventId', 'createdAt'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    text: p.text(),
    authorUserId: p.uuid().nullable(),
    authorName: p.text().nullable(),
    anonymous: p.boolean().defaultRaw('false'),
    status: p.enum(['open', 'answered', 'dismissed'] as const).defaultRaw("'open'"),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Question = InferEntity<typeof Question>;

export const QuestionVote = defineEntity({
  name: 'QuestionVote',
  tableName: 'question_vote',
  properties: (p) => ({
    questionId: p.uuid().primary(),
    voterKey: p.text().primary(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type QuestionVote = InferEntity<typeof QuestionVote>;

export const peopleEntities = [User, EventMembership, Question, QuestionVote];
