import { type ClientOptions, RequestCore } from './core';
import type { RawResources, Resources } from './generated/api';
import { rawResources, resources } from './resources';

/** A typed Gathercast client: one property per resource of the API. */
export type GathercastClient = Resources & {
  /** Each route answering `{ status, body, headers }` as the server sent it, never thrown, no retries by default. */
  raw: RawResources;
  /**
   * The live room run from a backend (docs/embed.md): the same resources as `liveTokens`,
   * `liveJoinLinks`, `liveParticipants` and `liveRoom`, grouped as `gc.live.tokens.create(...)`.
   */
  live: LiveResources;
};

/** `gc.live.*`: minted access and room control, grouped under one name. */
export interface LiveResources {
  tokens: Resources['liveTokens'];
  joinLinks: Resources['liveJoinLinks'];
  participants: Resources['liveParticipants'];
  room: Resources['liveRoom'];
}

/**
 * A typed Gathercast client. Every method resolves to the success body and throws a `GathercastError`
 * (status, code, detail, requestId) on a problem answer; connection errors, timeouts, 429, 5xx are retried.
 *
 *   const gc = createClient({ baseUrl, apiKey: process.env.GATHERCAST_API_KEY });
 *   const event = await gc.events.create({ type: 'webinar', title: 'Launch' });
 */
export function createClient(options: ClientOptions): GathercastClient {
  const core = new RequestCore(options);
  const all = resources(core);
  const live: LiveResources = {
    tokens: all.liveTokens,
    joinLinks: all.liveJoinLinks,
    participants: all.liveParticipants,
    room: all.liveRoom,
  };
  return { ...all, raw: rawResources(core), live };
}
