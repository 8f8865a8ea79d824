/*
 * Presence in Redis (REDIS_URL set). Per participant a hash: one field per process holding its
 * connection count, plus `info` and `role` (the role it is counted under). A process is alive while
 * its registry key exists (renewed by heartbeat with a TTL); a process whose key expired is
 * swept (its fields removed, participant.left for those it held last). Its counts stand until then,
 * as rows do with PostgreSQL: first and last are decided against the same fields the sweep decides
 * against, so a viewer of a crashed process who resumes here after its key expired but before the
 * sweep is not announced a second time. Per event a sorted set of participant ids (all scores 0, so
 * it pages in participantId order) and a hash of counts by role. The scripts make each join/leave/sweep decision atomic, so exactly one
 * process sees "first" or "last", and the counts move with those decisions.
 *
 * Redis is not in the database transaction that records participant.joined, so a first join is kept
 * in the process's `pending` hash of the event (with the id its webhook will have) until that transaction ends:
 * committed, the mark goes; rolled back, the join is undone. A process that dies in between leaves
 * the mark for the sweep, which asks the database whether that webhook committed (see LivePresence).
 */
/**
 * Keys of one deployment: `gc:live:<namespace>:…` (the namespace is the database's name). Everything a
 * script touches belongs to one event and carries its hash tag `{<eventId>}`, so on a Redis Cluster an
 * event's presence lives in one slot; what a process holds is kept per event for that reason. The
 * process registry (alive keys, and the events each process holds something in) shares one tag of its own.
 */
export const presenceKeys = (namespace: string) => {
  const prefix = `gc:live:${namespace}:`;
  const registry = `gc:live:{${namespace}:procs}:`;
  return {
    presence: (eventId: string, participantId: string) => `${prefix}p:{${eventId}}:${participantId}`,
    event: (eventId: string) => `${prefix}ev:{${eventId}}`,
    audience: (eventId: string) => `${prefix}aud:{${eventId}}`,
    held: (eventId: string, processId: string) => `${prefix}held:{${eventId}}:${processId}`,
    pending: (eventId: string, processId: string) => `${prefix}pending:{${eventId}}:${processId}`,
    proc: (processId: string) => `${registry}proc:${processId}`,
    events: (processId: string) => `${registry}events:${processId}`,
    procs: `${registry}all`,
  };
};

const connectionCount = `
local function connections(key)
  local fields = redis.call('HGETALL', key)
  local n = 0
  for i = 1, #fields, 2 do
    local f = fields[i]
    if f ~= 'info' and f ~= 'role' then n = n + tonumber(fields[i + 1]) end
  end
  return n
end
local function uncount(key, audience)
  local role = redis.call('HGET', key, 'role')
  if role then redis.call('HINCRBY', audience, role, -1) end
end
`;

// KEYS: presence hash, event zset, held set, audience hash, pending hash (held and pending: this process's in the event).
// ARGV: process id, info, participant id, role, webhook id
export const joinScript = `${connectionCount}
local before = connections(KEYS[1])
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[1], 'info', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[3])
redis.call('SADD', KEYS[3], ARGV[3])
if before > 0 then return 0 end
uncount(KEYS[1], KEYS[4])
redis.call('HSET', KEYS[1], 'role', ARGV[4])
redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
redis.call('HSET', KEYS[5], ARGV[3], ARGV[5])
return 1`;

// Same KEYS. ARGV: process id, participant id. Answers the info when the last connection
// anywhere left. Also what undoes a join whose transaction did not commit.
export const leaveScript = `${connectionCount}
redis.call('HDEL', KEYS[5], ARGV[2])
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return false end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SREM', KEYS[3], ARGV[2])
if connections(KEYS[1]) > 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
uncount(KEYS[1], KEYS[4])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return info`;

// KEYS: presence hash, event zset, audience hash. ARGV: dead process id, participant id.
// Answers {1, info} when nobody holds the participant any more, {0, info} when others still do.
export const sweepScript = `${connectionCount}
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return false end
local info = redis.call('HGET', KEYS[1], 'info')
if connections(KEYS[1]) > 0 then return {0, info} end
uncount(KEYS[1], KEYS[3])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
return {1, info}`;
