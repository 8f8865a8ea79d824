import type { RequestCore } from '../core';
import type { Event, EventsResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Events: create, list, read, update, delete, and the lifecycle (publish, start, end). */
export interface Events extends EventsResource {
  /** @deprecated iterate `events.list()` instead: `for await (const event of gc.events.list())`. */
  listAll(pageSize?: number): AsyncIterable<Event>;
}

export function events(core: RequestCore): Events {
  const methods = resource<EventsResource>(core, routes.events);
  return { ...methods, listAll: (pageSize = 100) => methods.list({ query: { limit: pageSize } }) };
}
