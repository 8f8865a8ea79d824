import { type ClientOptions, RequestCore } from './core';
import type { RawResources } from './generated/api';
import { type Resources, rawResources, resources } from './resources';

/** A typed Gathercast client: one property per resource of the API. */
export type GathercastClient = Resources & {
  /** Each route answering `{ status, body, headers }` as the server sent it, never thrown, no retries by default. */
  raw: RawResources;
};

/**
 * A typed Gathercast client. Every method resolves to the success body and throws a `GathercastError`
 * (status, code, detail, requestId) on a problem answer; connection errors, timeouts, 429, 5xx are retried.
 *
 *   const gc = createClient({ baseUrl, apiKey: process.env.GATHERCAST_API_KEY });
 *   const event = await gc.events.create({ body: { type: 'webinar', title: 'Launch' } });
 */
export function createClient(options: ClientOptions): GathercastClient {
  const core = new RequestCore(options);
  return { ...resources(core), raw: rawResources(core) };
}
