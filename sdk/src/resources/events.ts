import type { Event } from '@gathercast/contract';
import type { RawClient, RequestCore, ResourceMethods } from '../core';

export type EventsResource = ResourceMethods<RawClient['events']> & {
  /** Every event, newest first, following `nextCursor` for you. */
  listAll(pageSize?: number): AsyncGenerator<Event>;
};

/** The `events` routes, plus `listAll`. */
export const eventsResource = (core: RequestCore): EventsResource => {
  const methods = core.resource('events');
  return {
    ...methods,
    async *listAll(pageSize = 100) {
      let cursor: string | undefined;
      do {
        const page = await methods.list({ query: { limit: pageSize, cursor } });
        yield* page.events;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
  };
};
