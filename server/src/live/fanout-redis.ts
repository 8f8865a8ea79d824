import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  type Backlog,
  channel,
  type Envelope,
  type Fanout,
  type HistoryLimits,
  isNotice,
  parseNumbered,
  whole,
} from './fanout';

// KEYS: seq counter, history stream. ARGV: channel, envelope json, window ms, max kept.
// One script: numbering, keeping and publishing are atomic, so every subscriber sees seq order.
// The counter outlives any quiet spell of a live event (30 days): were it to restart at 1, sockets
// still open would take the new numbers for ones already sent and drop them.
const publishScript = `
local seq = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], 2592000000)
local window = tonumber(ARGV[3])
local max = tonumber(ARGV[4])
if max > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('XADD', KEYS[2], 'MAXLEN', max, '*', 'seq', seq, 'env', ARGV[2])
  redis.call('XTRIM', KEYS[2], 'MINID', string.format('%d', now - window))
  redis.call('PEXPIRE', KEYS[2], window * 2)
end
redis.call('PUBLISH', ARGV[1], seq .. ':' .. ARGV[2])
return seq`;

// KEYS: seq counter, history stream. ARGV: after, window ms. Answers { last seq, 'seq:env'... oldest first }
// with only the entries younger than the window.
const sinceScript = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local after = tonumber(ARGV[1])
local out = { last }
if after >= last then return out end
local t = redis.call('TIME')
local oldest = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) - tonumber(ARGV[2])
local entries = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', last - after)
for i = #entries, 1, -1 do
  local id, fields = entries[i][1], entries[i][2]
  if tonumber(string.match(id, '^(%d+)')) >= oldest then
    out[#out + 1] = fields[2] .. ':' .. fields[4]
  end
end
return out`;

/** Redis pub/sub (REDIS_URL set): one channel for the deployment; per event a counter and a stream. */
export class RedisFanout implements Fanout {
  readonly #pub: Redis;
  readonly #sub: Redis;
  /** One channel per deployment (namespace = the database's name), so deployments sharing a Redis stay apart. */
  readonly #channel: string;
  readonly #prefix: string;

  constructor(
    redisUrl: string,
    private readonly logger: Logger,
    namespace: string,
    private readonly limits: HistoryLimits,
  ) {
    this.#channel = `gathercast:${channel}:${namespace}`;
    this.#prefix = `gc:live:${namespace}:`;
    // Commands of one event-loop turn (a crowd's history reads and resume notices) leave as one write.
    this.#pub = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.#sub = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    // ioredis reconnects by itself; a lost connection is worth a warning, not a crash.
    for (const r of [this.#pub, this.#sub])
      r.on('error', (err) => this.logger.warn({ err }, 'live Redis connection error'));
  }

  /** The event's counter and stream, hash-tagged to one cluster slot. */
  #keys(eventId: string): [string, string] {
    return [`${this.#prefix}seq:{${eventId}}`, `${this.#prefix}hist:{${eventId}}`];
  }

  async start(deliver: (envelope: Envelope) => void): Promise<void> {
    this.#sub.on('message', (_c: string, payload: string) => {
      try {
        deliver(parseNumbered(payload));
      } catch (err) {
        this.logger.warn({ err }, 'live fan-out message dropped');
      }
    });
    await this.#sub.subscribe(this.#channel);
  }

  async publish(envelope: Envelope): Promise<void> {
    if (isNotice(envelope)) {
      await this.#pub.publish(this.#channel, `:${JSON.stringify(envelope)}`);
      return;
    }
    await this.#pub.eval(
      publishScript,
      2,
      ...this.#keys(envelope.eventId),
      this.#channel,
      JSON.stringify(envelope),
      this.limits.windowMs,
      this.limits.max,
    );
  }

  async lastSeq(eventId: string): Promise<number> {
    return Number((await this.#pub.get(this.#keys(eventId)[0])) ?? 0);
  }

  async since(eventId: string, after: number): Promise<Backlog | null> {
    const [last, ...entries] = (await this.#pub.eval(
      sinceScript,
      2,
      ...this.#keys(eventId),
      after,
      this.limits.windowMs,
    )) as [number, ...string[]];
    return whole(after, Number(last), entries.map(parseNumbered));
  }

  async stop(): Promise<void> {
    this.#sub.disconnect();
    this.#pub.disconnect();
  }
}
