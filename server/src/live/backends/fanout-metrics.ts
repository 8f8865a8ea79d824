import { observeFanout } from '../../lib/metrics';
import type { Envelope, Fanout } from '../fanout';

/** An envelope stamped by the publishing process (milliseconds since the epoch). */
type Stamped = Envelope & { publishedAt?: number };

/**
 * Wraps a fan-out so every envelope carries when it was published and every receiving process
 * records the publish-to-delivery time (gathercast_live_fanout_latency_seconds). Across hosts the
 * figure includes their clock difference, which NTP keeps to milliseconds.
 */
export function timedFanout(inner: Fanout): Fanout {
  return {
    start: (deliver) =>
      inner.start((envelope: Stamped) => {
        if (typeof envelope.publishedAt === 'number') observeFanout(envelope.publishedAt);
        deliver(envelope);
      }),
    publish: (envelope) => inner.publish({ ...envelope, publishedAt: Date.now() } as Stamped),
    serve: (eventId) => inner.serve(eventId),
    release: (eventId) => inner.release(eventId),
    lastSeq: (eventId) => inner.lastSeq(eventId),
    since: (eventId, after) => inner.since(eventId, after),
    stop: () => inner.stop(),
  };
}
