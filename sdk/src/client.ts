import type { Contract, Event } from '@gathercast/contract';
import { type ClientOptions, RequestCore } from './core';
import { type RawClient, type ResourceMethods, rawMethods, resourceMethods } from './resource';
import { routes } from './routes';

type Resources = { [K in keyof Contract]: ResourceMethods<RawClient[K]> };

/** A typed Gathercast client: one property per resource of the API. */
export type GathercastClient = Resources & {
  events: Resources['events'] & {
    /** @deprecated iterate `events.list()` instead: `for await (const event of gc.events.list())`. */
    listAll(pageSize?: number): AsyncIterable<Event>;
  };
  /** Each route answering `{ status, body, headers }` as the server sent it, never thrown, no retries by default. */
  raw: RawClient;
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
  const client: Record<string, unknown> = {};
  const raw: Record<string, unknown> = {};
  for (const [group, members] of Object.entries(routes)) {
    client[group] = resourceMethods(core, members);
    raw[group] = rawMethods(core, members);
  }
  const events = client.events as GathercastClient['events'];
  events.listAll = (pageSize = 100) => events.list({ query: { limit: pageSize } });
  client.raw = raw;
  return client as GathercastClient;
}
