import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * The live plane's tables (migrations LivePlane, LiveHistory, AudienceRecords, LiveControl, LiveLastLine,
 * LiveClientAddress). The gateway's hot paths read and write them with SQL (advisory locks, upserts, counts, trims); the
 * entities are the schema's truth, which test/orm.schema.test.ts holds against the migrations.
 */
export const LivePresence = defineEntity({
  name: 'LivePresence',
  tableName: 'live_presence',
  indexes: [
    { name: 'live_presence_process_idx', properties: ['processId'] },
    { name: 'live_presence_expires_idx', properties: ['expiresAt'] },
  ],
  checks: [{ name: 'live_presence_connections_check', expression: 'connections > 0' }],
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    processId: p.uuid().primary(),
    connections: p.integer(),
    info: p.json<Record<string, unknown>>(),
    expiresAt: p.datetime(),
  }),
});
export type LivePresence = InferEntity<typeof LivePresence>;

export const LiveMessage = defineEntity({
  name: 'LiveMessage',
  tableName: 'live_message',
  indexes: [{ name: 'live_message_created_idx', properties: ['createdAt'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    payload: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveMessage = InferEntity<typeof LiveMessage>;

export const LiveLobbyEntry = defineEntity({
  name: 'LiveLobbyEntry',
  tableName: 'live_lobby',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    info: p.json<Record<string, unknown>>(),
    status: p.enum(['waiting', 'admitted', 'denied'] as const),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveLobbyEntry = InferEntity<typeof LiveLobbyEntry>;

export const LiveHand = defineEntity({
  name: 'LiveHand',
  tableName: 'live_hand',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    raisedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveHand = InferEntity<typeof LiveHand>;

export const LiveBanner = defineEntity({
  name: 'LiveBanner',
  tableName: 'live_banner',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    text: p.text(),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveBanner = InferEntity<typeof LiveBanner>;

export const LivePoll = defineEntity({
  name: 'LivePoll',
  tableName: 'live_poll',
  indexes: [{ name: 'live_poll_event_idx', properties: ['eventId', 'createdAt'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    question: p.text(),
    options: p.json<string[]>(),
    closed: p.boolean().defaultRaw('false'),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LivePoll = InferEntity<typeof LivePoll>;

export const LivePollVote = defineEntity({
  name: 'LivePollVote',
  tableName: 'live_poll_vote',
  checks: [{ name: 'live_poll_vote_option_check', expression: 'option >= 0' }],
  properties: (p) => ({
    pollId: p.uuid().primary(),
    voterKey: p.text().primary(),
    option: p.integer(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LivePollVote = InferEntity<typeof LivePollVote>;

export const LiveTableSeat = defineEntity({
  name: 'LiveTableSeat',
  tableName: 'live_table_seat',
  indexes: [
    { name: 'live_table_seat_table_idx', properties: ['phaseId', 'round', 'tableNo'] },
    { name: 'live_table_seat_event_idx', properties: ['eventId'] },
  ],
  checks: [
    { name: 'live_table_seat_round_check', expression: 'round >= 1' },
    { name: 'live_table_seat_table_no_check', expression: 'table_no >= 1' },
  ],
  properties: (p) => ({
    phaseId: p.uuid().primary(),
    round: p.integer().primary(),
    participantId: p.text().primary(),
    eventId: p.uuid(),
    tableNo: p.integer(),
  }),
});
export type LiveTableSeat = InferEntity<typeof LiveTableSeat>;

/** Every chat line the gateway accepted (migration AudienceRecords). */
export const LiveChatMessage = defineEntity({
  name: 'LiveChatMessage',
  tableName: 'live_chat_message',
  indexes: [{ name: 'live_chat_message_event_idx', properties: ['eventId', 'sentAt', 'id'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    eventId: p.uuid(),
    participantId: p.text(),
    authorName: p.text().nullable(),
    role: p.text(),
    anonymous: p.boolean(),
    text: p.text(),
    sentAt: p.datetime(),
  }),
});
export type LiveChatMessage = InferEntity<typeof LiveChatMessage>;

/** Reactions sent in an event, counted per emoji. */
export const LiveReactionTotal = defineEntity({
  name: 'LiveReactionTotal',
  tableName: 'live_reaction_total',
  checks: [{ name: 'live_reaction_total_count_check', expression: 'count > 0' }],
  properties: (p) => ({
    eventId: p.uuid().primary(),
    emoji: p.text().primary(),
    workspaceId: p.uuid(),
    count: p.bigint(),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveReactionTotal = InferEntity<typeof LiveReactionTotal>;

/**
 * The last seq handed out per event (migration LiveHistory), used when REDIS_URL is unset. No foreign
 * key: a message about a just-deleted event must still get a number.
 */
export const LiveStream = defineEntity({
  name: 'LiveStream',
  tableName: 'live_stream',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    seq: p.bigint('string'),
  }),
});
export type LiveStream = InferEntity<typeof LiveStream>;

/** An event's recent envelopes, which a resuming socket replays from; trimmed on every insert. */
export const LiveHistory = defineEntity({
  name: 'LiveHistory',
  tableName: 'live_history',
  indexes: [{ name: 'live_history_created_idx', properties: ['createdAt'] }],
  properties: (p) => ({
    eventId: p.uuid().primary(),
    seq: p.bigint('string').primary(),
    payload: p.text(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveHistory = InferEntity<typeof LiveHistory>;

/**
 * A sanction on a participant (migration LiveControl), one row per kind: a removal refuses tokens
 * issued before it, a ban lasts the rest of the event (covering the address when `withAddress`).
 */
export const LiveSanction = defineEntity({
  name: 'LiveSanction',
  tableName: 'live_sanction',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    kind: p.enum(['removal', 'ban', 'mute'] as const).primary(),
    workspaceId: p.uuid(),
    reason: p.text().nullable(),
    withAddress: p.boolean().defaultRaw('false'),
    clientAddress: p.text().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveSanction = InferEntity<typeof LiveSanction>;

/** A chat line or question deleted for everyone: never replayed to a resuming socket again. */
export const LiveDeletion = defineEntity({
  name: 'LiveDeletion',
  tableName: 'live_deletion',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    kind: p.enum(['chat', 'question'] as const).primary(),
    itemId: p.uuid().primary(),
    workspaceId: p.uuid(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveDeletion = InferEntity<typeof LiveDeletion>;

/** The room's chat settings set for the rest of the event; without a row the governing phase's config applies. */
export const LiveRoom = defineEntity({
  name: 'LiveRoom',
  tableName: 'live_room',
  checks: [
    {
      name: 'live_room_slow_mode_seconds_check',
      expression: '(slow_mode_seconds >= 0) AND (slow_mode_seconds <= 3600)',
    },
  ],
  properties: (p) => ({
    eventId: p.uuid().primary(),
    workspaceId: p.uuid(),
    chatMode: p.enum(['open', 'audience_locked', 'moderators_only'] as const).nullable(),
    slowModeSeconds: p.integer().nullable(),
    updatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveRoom = InferEntity<typeof LiveRoom>;

/** When a sender of an event last had a chat line accepted in slow mode (backends/slow-mode-pg.ts). */
export const LiveLastLine = defineEntity({
  name: 'LiveLastLine',
  tableName: 'live_last_line',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    workspaceId: p.uuid(),
    sentAt: p.datetime(),
  }),
});
export type LiveLastLine = InferEntity<typeof LiveLastLine>;

/** Where each participant of an event last connected from (control/client-addresses.ts). */
export const LiveClientAddress = defineEntity({
  name: 'LiveClientAddress',
  tableName: 'live_client_address',
  indexes: [{ name: 'live_client_address_seen_idx', properties: ['seenAt'] }],
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    workspaceId: p.uuid(),
    clientAddress: p.text(),
    seenAt: p.datetime().defaultRaw('now()'),
  }),
});
export type LiveClientAddress = InferEntity<typeof LiveClientAddress>;

export const liveEntities = [
  LivePresence,
  LiveMessage,
  LiveLobbyEntry,
  LiveHand,
  LiveBanner,
  LivePoll,
  LivePollVote,
  LiveTableSeat,
  LiveChatMessage,
  LiveReactionTotal,
  LiveStream,
  LiveHistory,
  LiveSanction,
  LiveDeletion,
  LiveRoom,
  LiveLastLine,
  LiveClientAddress,
];
