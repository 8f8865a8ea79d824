import { type RouteMetadata, scopesGranting } from '@gathercast/contract';
import type { Request } from 'express';
import { problem } from '../lib/problem';
import type { ApiKeyCaller } from '../lib/actor';

/** Routes about one event: their `:id` path parameter is the event (`/v1/events/:id` and below). */
const eventRoute = /^\/v1\/events\/:id(\/|$)/;

/**
 * What an API key may call, from the route's contract metadata: the route's scope must be among the
 * key's (403 naming the missing scope), and a key restricted to one event calls only that event's
 * routes (another event looks missing, as another workspace's does). Sessions are not scoped.
 */
export function checkKeyScope(key: ApiKeyCaller, meta: RouteMetadata | undefined, req: Request): void {
  const scope = meta?.scope;
  if (scope && !scopesGranting(scope).some((granted) => key.scopes.includes(granted))) {
    throw problem('forbidden', `This API key lacks the scope ${scope} (it holds: ${key.scopes.join(', ')})`);
  }
  if (!key.eventId) return;
  const path = (req as Request & { tsRestRoute?: { path?: string } }).tsRestRoute?.path ?? '';
  if (!eventRoute.test(path)) {
    throw problem(
      'forbidden',
      `This API key is restricted to event ${key.eventId}; this route is not about one event`,
    );
  }
  if (req.params.id !== key.eventId) throw problem('not_found', 'Event not found');
}
