import { createHash } from 'node:crypto';
import type { RouteMetadata } from '@gathercast/contract';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sql } from '../db/sql';
import { invalidField, problem } from '../lib/problem';

/**
 * `Idempotency-Key` on every POST. The scope is the caller (API key, session, the platform key, or
 * the client address for anonymous calls), the workspace the call resolved to, method and path. The first request claims the key
 * by inserting its record (the primary key makes the claim atomic); its final answer (2xx–4xx) is
 * stored before it is sent and replayed for 24 h to the same key with the same body. The same key
 * with another body is 409 idempotency_key_reused. An answer that carries a one-time secret (a
 * token in the body, or a cookie) is recorded as done but not kept: a repeat gets 409 conflict. A duplicate arriving while the first is still
 * running waits for it briefly, then gets 409 conflict with `Retry-After: 1`. A 5xx is not stored: the key is released.
 */
export const idempotencyKeyMaxLength = 255;
export const idempotencyWindowHours = 24;
/** A claim this old without an answer belongs to a request that died with its process. */
const abandonedAfterSeconds = 60;
const waitForFirstMs = 5_000;
const pollMs = 25;
/** The in-progress 409 is the only one with Retry-After: clients retry it, not the others. */
const inProgressRetryAfterSeconds = 1;

interface StoredAnswer {
  contentType: string | null;
  body: unknown;
  /** The answer carried a one-time secret (a token in the body, or a cookie): never stored, never replayed. */
  withheld?: boolean;
}

/**
 * Secrets are shown once and stored only hashed, so answers carrying one are not kept. A signed token
 * (a JWT: live-gateway tokens) is a credential too: replayed, it would hand one anonymous caller's
 * identity to another behind the same address.
 */
const secretPattern =
  /(?:gck|gcs|gcw|gcg|gce|gcv|gcr|gci|gcn|gcj)_[A-Za-z0-9_-]{16,}|whsec_[A-Za-z0-9_-]{16,}|eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/;

interface RecordRow {
  request_hash: string;
  status: number | null;
  response_body: StoredAnswer | null;
  expired: boolean;
  abandoned: boolean;
}

function callerScope(req: Request): string {
  if (req.auth?.apiKey) return `key:${req.auth.apiKey.id}`;
  if (req.auth?.session) return `session:${req.auth.session.id}`;
  if (req.auth?.platform) return 'platform';
  return `ip:${req.ip ?? 'unknown'}`;
}

/**
 * Who asked, in which workspace, for what. The workspace matters for a session of an account with
 * several workspaces: the same key sent with another `x-workspace-id` is another request.
 */
function scopeOf(req: Request): string {
  return `${callerScope(req)} ws:${req.auth?.workspaceId ?? '-'} ${req.method} ${req.path}`;
}

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function replay(res: Response, status: number, answer: StoredAnswer | null): void {
  res.setHeader('idempotent-replayed', 'true');
  if (answer?.contentType) res.setHeader('content-type', answer.contentType);
  if (answer?.body === null || answer?.body === undefined) {
    res.status(status).end();
    return;
  }
  res.status(status).send(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
}

/** Stores the final answer before it reaches the client (or releases the key on a 5xx). */
function captureAnswer(req: Request, res: Response, scope: string, key: string): void {
  const chunks: Buffer[] = [];
  const toBuffer = (chunk: unknown, encoding?: unknown) =>
    Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk, encoding] = args;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      chunks.push(toBuffer(chunk, encoding));
    const status = res.statusCode;
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const contentType = (res.getHeader('content-type') as string | undefined) ?? null;
    const withheld = res.getHeader('set-cookie') !== undefined || secretPattern.test(text);
    const answer: StoredAnswer = withheld ? { contentType, body: null, withheld } : { contentType, body };
    const store =
      status >= 200 && status < 500
        ? sql(
            req.em,
            'update idempotency_record set status = ?, response_body = ? where scope = ? and key = ?',
            [status, JSON.stringify(answer), scope, key],
          )
        : sql(req.em, 'delete from idempotency_record where scope = ? and key = ? and status is null', [
            scope,
            key,
          ]);
    store
      .catch((err) => req.log?.error({ err }, 'could not store the idempotent answer'))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}

/** Routes whose contract metadata says `replayable: false` keep nothing (help chat stores no conversation). */
const replayable = (req: Request) => {
  const route = (req as Request & { tsRestRoute?: { metadata?: RouteMetadata } }).tsRestRoute;
  return route?.metadata?.replayable !== false;
};

async function handle(req: Request, res: Response, next: NextFunction): Promise<void> {
  const key = req.header('idempotency-key');
  if (req.method !== 'POST' || key === undefined || !replayable(req)) return next();
  if (key.length < 1 || key.length > idempotencyKeyMaxLength) {
    throw invalidField(
      'headers.idempotency-key',
      key.length < 1 ? 'too_short' : 'too_long',
      `Must be 1 to ${idempotencyKeyMaxLength} characters`,
      `Idempotency-Key must be 1 to ${idempotencyKeyMaxLength} characters`,
    );
  }
  const scope = scopeOf(req);
  const requestHash = createHash('sha256').update(canonical(req.body)).digest('hex');
  const deadline = Date.now() + waitForFirstMs;
  for (;;) {
    const claimed = await sql(
      req.em,
      'insert into idempotency_record (scope, key, request_hash) values (?, ?, ?) on conflict do nothing returning key',
      [scope, key, requestHash],
    );
    if (claimed.length > 0) {
      captureAnswer(req, res, scope, key);
      return next();
    }
    const [row] = await sql<RecordRow>(
      req.em,
      `select request_hash, status, response_body,
              created_at < now() - make_interval(hours => ?) as expired,
              created_at < now() - make_interval(secs => ?) as abandoned
         from idempotency_record where scope = ? and key = ?`,
      [idempotencyWindowHours, abandonedAfterSeconds, scope, key],
    );
    if (!row) continue;
    if (row.expired || (row.status === null && row.abandoned)) {
      await sql(
        req.em,
        `delete from idempotency_record
          where scope = ? and key = ?
            and (created_at < now() - make_interval(hours => ?)
                 or (status is null and created_at < now() - make_interval(secs => ?)))`,
        [scope, key, idempotencyWindowHours, abandonedAfterSeconds],
      );
      continue;
    }
    if (row.request_hash !== requestHash) {
      throw problem('idempotency_key_reused', 'This Idempotency-Key was used with a different request body');
    }
    if (row.status !== null && row.response_body?.withheld) {
      throw problem(
        'conflict',
        `The request with this Idempotency-Key already succeeded (status ${row.status}); its answer carried a secret that is shown only once, so it is not replayed`,
      );
    }
    if (row.status !== null) return replay(res, row.status, row.response_body);
    if (Date.now() > deadline) {
      // Retry-After tells clients (the SDK retries on it) that this 409 is worth retrying, unlike the others.
      throw problem('conflict', 'A request with this Idempotency-Key is still in progress; retry shortly', {
        retryAfterSeconds: inProgressRetryAfterSeconds,
      });
    }
    await sleep(pollMs);
  }
}

export const idempotency = (): RequestHandler => (req, res, next) => {
  handle(req, res, next).catch(next);
};
