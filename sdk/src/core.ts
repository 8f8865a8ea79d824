import {
  GathercastAbortError,
  GathercastConnectionError,
  GathercastError,
  GathercastTimeoutError,
} from './errors';
import { type ApiResponse, readRateLimit } from './response';
import type { Route } from './routes';
import { VERSION } from './version';

export interface ClientOptions {
  /** e.g. https://api.gathercast.example (no trailing /v1). */
  baseUrl: string;
  /** A workspace API key (gck_…): server-side only. */
  apiKey?: string;
  /** A session token (gcs_, gcw_, gcg_ or gce_), sent as Bearer. */
  sessionToken?: string;
  /** For account sessions in several workspaces: which one management calls act on. */
  workspaceId?: string;
  /** A fetch implementation (defaults to globalThis.fetch). */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Retries after a connection error, timeout, 429, 409 "key in progress" or 5xx (default 2). */
  maxRetries?: number;
  /** Milliseconds one attempt may take, answer body included (default 30 000). */
  timeout?: number;
}

/** Options of one call, passed as the last argument of any method. */
export interface RequestOptions {
  /** For a POST: the key the server deduplicates on (default: one generated per call, reused on retries). */
  idempotencyKey?: string;
  /** Milliseconds one attempt may take (default: the client's). */
  timeout?: number;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Retries for this call (default: the client's). */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
  /** The workspace this call acts on (overrides the client's `workspaceId`). */
  workspaceId?: string;
}

/** The arguments of any route: path params, query, JSON body, and headers. */
export interface RouteArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
}

/** The final HTTP answer of a call, thrown or not. */
export interface RawAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;
const INITIAL_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A longer Retry-After is not waited for: the error goes to the caller. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Seconds from a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** Exponential backoff (0.5 s, 1 s, 2 s, … up to 8 s) less up to 25 % jitter, so clients do not retry in step. */
export function backoffMs(retry: number): number {
  const base = Math.min(INITIAL_BACKOFF_MS * 2 ** retry, MAX_BACKOFF_MS);
  return base * (1 - Math.random() * 0.25);
}

/**
 * Whether an answer is worth another attempt: 429, 5xx except 501 (not implemented will not change), and a 409
 * with Retry-After (the same Idempotency-Key is still being processed; other 409s are final).
 */
export function isRetryableStatus(status: number, headers: Headers): boolean {
  if (status === 429) return true;
  if (status === 409) return headers.has('retry-after');
  return status >= 500 && status !== 501;
}

/**
 * A fresh key per call. Web Crypto where the runtime has it (Node 19+, browsers, edge runtimes);
 * Node 18 has no global `crypto`, so a v4-shaped key from Math.random: an idempotency key must be
 * unique per call, not secret, and 122 random bits keep collisions out of reach either way.
 */
function newIdempotencyKey(): string {
  const webCrypto = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function buildUrl(baseUrl: string, route: Route, args: RouteArgs): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = args.params?.[name];
    if (value === undefined || value === null) throw new TypeError(`Missing path parameter "${name}" for ${route.path}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(key, item instanceof Date ? item.toISOString() : String(item));
  }
  const search = query.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function parseBody(text: string, contentType: string): unknown {
  if (!text) return undefined;
  if (!contentType.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new GathercastAbortError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new GathercastAbortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The one request path every method goes through: headers, timeout, retries, idempotency, errors. */
export class RequestCore {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  private headersFor(route: Route, args: RouteArgs, options: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `gathercast-sdk-js/${VERSION}`,
    };
    const set = (from: Record<string, string | undefined> | undefined) => {
      for (const [name, value] of Object.entries(from ?? {}))
        if (value !== undefined) headers[name.toLowerCase()] = value;
    };
    set(this.options.headers);
    if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (this.options.sessionToken) headers.authorization = `Bearer ${this.options.sessionToken}`;
    const workspaceId = options.workspaceId ?? this.options.workspaceId;
    if (workspaceId) headers['x-workspace-id'] = workspaceId;
    set(args.headers);
    set(options.headers);
    if (args.body !== undefined) headers['content-type'] = 'application/json';
    if (route.method === 'POST')
      headers['idempotency-key'] = options.idempotencyKey ?? headers['idempotency-key'] ?? newIdempotencyKey();
    return headers;
  }

  /** One attempt: the answer with its body read, within `timeoutMs`. */
  private async attempt(
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<RawAnswer> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.fetchImpl(url, { ...init, signal: controller.signal, redirect: 'manual' });
      const text = await res.text();
      return { status: res.status, body: parseBody(text, res.headers.get('content-type') ?? ''), headers: res.headers };
    } catch (err) {
      if (signal?.aborted) throw new GathercastAbortError(signal.reason);
      if (timedOut) throw new GathercastTimeoutError(`No answer from ${this.baseUrl} within ${timeoutMs} ms`);
      throw new GathercastConnectionError(`Could not reach ${this.baseUrl}: ${(err as Error).message}`, err);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Sends a route's request, retrying what is worth retrying, and resolves to the final answer whatever its
   * status (connection failures and aborts throw). POSTs carry one Idempotency-Key across all attempts.
   */
  async send(
    route: Route,
    args: RouteArgs = {},
    options: RequestOptions = {},
  ): Promise<{ answer: RawAnswer; idempotencyKey: string | undefined; retries: number }> {
    const headers = this.headersFor(route, args, options);
    const url = buildUrl(this.baseUrl, route, args);
    const init: RequestInit = {
      method: route.method,
      headers,
      body: args.body === undefined ? undefined : JSON.stringify(args.body),
    };
    const maxRetries = Math.max(0, options.maxRetries ?? this.options.maxRetries ?? DEFAULT_MAX_RETRIES);
    const timeoutMs = options.timeout ?? this.options.timeout ?? DEFAULT_TIMEOUT_MS;
    for (let retries = 0; ; retries++) {
      let answer: RawAnswer | undefined;
      try {
        answer = await this.attempt(url, init, timeoutMs, options.signal);
      } catch (err) {
        // Connection errors and timeouts are retried; an abort is the caller's decision.
        if (!(err instanceof GathercastConnectionError) || retries >= maxRetries) throw err;
      }
      let waitMs = backoffMs(retries);
      if (answer) {
        if (retries >= maxRetries || !isRetryableStatus(answer.status, answer.headers))
          return { answer, idempotencyKey: headers['idempotency-key'], retries };
        const retryAfter = retryAfterSeconds(answer.headers);
        if (retryAfter !== undefined) {
          if (retryAfter * 1000 > MAX_RETRY_AFTER_MS)
            return { answer, idempotencyKey: headers['idempotency-key'], retries };
          waitMs = retryAfter * 1000;
        }
      }
      await sleep(waitMs, options.signal);
    }
  }

  /** Sends and unwraps: the success body with its metadata, or the problem thrown as a GathercastError. */
  async request<T>(route: Route, args?: RouteArgs, options?: RequestOptions): Promise<ApiResponse<T>> {
    const { answer, idempotencyKey, retries } = await this.send(route, args, options);
    if (answer.status < 200 || answer.status >= 400)
      throw GathercastError.from({ ...answer, retryAfter: retryAfterSeconds(answer.headers) });
    return {
      data: answer.body as T,
      status: answer.status,
      headers: answer.headers,
      requestId: answer.headers.get('x-request-id') ?? undefined,
      rateLimit: readRateLimit(answer.headers),
      idempotencyKey,
      replayed: answer.headers.get('idempotent-replayed') === 'true',
      retries,
    };
  }
}
