import type { Event } from '@gathercast/contract';
import type { RequestCore } from '../core';

/** The `events` routes, plus `listAll` which follows `nextCursor` for you. */
export const eventsResource = (core: RequestCore) => {
  const methods = core.resource('events');
  return {
    ...methods,
    async *listAll(pageSize = 100): AsyncGenerator<Event> {
      let cursor: string | undefined;
      do {
        const page = await methods.list({ query: { limit: pageSize, cursor } });
        yield* page.events;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    },
  };
};
export type EventsResource = ReturnType<typeof eventsResource>;
