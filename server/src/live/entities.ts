import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * The live plane's tables (migration LivePlane). The gateway reads and writes them with SQL (advisory
 * locks, upserts, counts); the entities describe the schema for the ORM and for other domains.
 */
export const LivePresence = defineEntity({
  name: 'LivePresence',
  tableName: 'live_presence',
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
  properties: (p) => ({
    id: p.uuid().primary(),
    payload: p.text(),
    createdAt: p.datetime(),
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
    updatedAt: p.datetime(),
  }),
});
export type LiveLobbyEntry = InferEntity<typeof LiveLobbyEntry>;

export const LiveHand = defineEntity({
  name: 'LiveHand',
  tableName: 'live_hand',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    participantId: p.text().primary(),
    raisedAt: p.datetime(),
  }),
});
export type LiveHand = InferEntity<typeof LiveHand>;

export const LiveBanner = defineEntity({
  name: 'LiveBanner',
  tableName: 'live_banner',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    text: p.text(),
    updatedAt: p.datetime(),
  }),
});
export type LiveBanner = InferEntity<typeof LiveBanner>;

export const LivePoll = defineEntity({
  name: 'LivePoll',
  tableName: 'live_poll',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    question: p.text(),
    options: p.json<string[]>(),
    closed: p.boolean(),
    createdAt: p.datetime(),
  }),
});
export type LivePoll = InferEntity<typeof LivePoll>;

export const LivePollVote = defineEntity({
  name: 'LivePollVote',
  tableName: 'live_poll_vote',
  properties: (p) => ({
    pollId: p.uuid().primary(),
    voterKey: p.text().primary(),
    option: p.integer(),
    createdAt: p.datetime(),
  }),
});
export type LivePollVote = InferEntity<typeof LivePollVote>;

export const LiveTableSeat = defineEntity({
  name: 'LiveTableSeat',
  tableName: 'live_table_seat',
  properties: (p) => ({
    phaseId: p.uuid().primary(),
    round: p.integer().primary(),
    participantId: p.text().primary(),
    eventId: p.uuid(),
    tableNo: p.integer(),
  }),
});
export type LiveTableSeat = InferEntity<typeof LiveTableSeat>;

export const liveEntities = [
  LivePresence,
  LiveMessage,
  LiveLobbyEntry,
  LiveHand,
  LiveBanner,
  LivePoll,
  LivePollVote,
  LiveTableSeat,
];
