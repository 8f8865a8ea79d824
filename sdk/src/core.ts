import { type Contract, contract } from '@gathercast/contract';
import {
  type ApiFetcherArgs,
  type AppRoute,
  type AppRouter,
  type InitClientReturn,
  initClient,
  isAppRoute,
} from '@ts-rest/core';
import { GathercastConnectionError, GathercastError } from './errors';

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
}

/** The underlying ts-rest client (named through InitClientReturn so declaration bundling keeps `Contract`). */
export type RawClient = InitClientReturn<Contract, { baseUrl: string; baseHeaders: Record<string, string> }>;

type Success = 200 | 201 | 202 | 204 | 302;

/** A ts-rest client method, unwrapped: resolves to the success body, throws GathercastError otherwise. */
export type Unwrapped<F> = F extends (...args: infer A) => Promise<infer R>
  ? (...args: A) => Promise<R extends { status: Success; body: infer B } ? B : never>
  : never;

export type ResourceMethods<R> = { [K in keyof R]: Unwrapped<R[K]> };

function headerValue(headers: Headers | Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  return (headers as Record<string, string>)[name];
}

/** The one request path every resource goes through. */
export class RequestCore {
  readonly raw: RawClient;

  constructor(readonly options: ClientOptions) {
    const baseHeaders: Record<string, string> = { ...options.headers };
    if (options.apiKey) baseHeaders['x-api-key'] = options.apiKey;
    if (options.sessionToken) baseHeaders.authorization = `Bearer ${options.sessionToken}`;
    if (options.workspaceId) baseHeaders['x-workspace-id'] = options.workspaceId;
    const fetchImpl = options.fetch ?? globalThis.fetch;
    this.raw = initClient(contract, {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      baseHeaders,
      jsonQuery: false,
      validateResponse: false,
      api: async ({ path, method, headers, body, fetchOptions }: ApiFetcherArgs) => {
        let res: Response;
        try {
          res = await fetchImpl(path, { ...fetchOptions, method, headers, body, redirect: 'manual' });
        } catch (err) {
          throw new GathercastConnectionError(`Could not reach ${options.baseUrl}: ${(err as Error).message}`, err);
        }
        const text = await res.text();
        const type = res.headers.get('content-type') ?? '';
        let parsed: unknown = text;
        if (text && (type.includes('json') || type.includes('problem'))) {
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
        }
        return { status: res.status, body: text ? parsed : undefined, headers: res.headers };
      },
    }) as RawClient;
  }

  /** Maps a raw `{status, body, headers}` to the body, or throws the problem as a GathercastError. */
  static unwrap(result: { status: number; body: unknown; headers?: Headers }): unknown {
    if (result.status >= 200 && result.status < 400) return result.body;
    const body = (typeof result.body === 'object' && result.body !== null ? result.body : {}) as Record<string, unknown>;
    const retryAfter = headerValue(result.headers, 'retry-after');
    throw new GathercastError(
      result.status,
      typeof body.code === 'string' ? body.code : `http_${result.status}`,
      typeof body.detail === 'string' ? body.detail : String(result.body ?? ''),
      headerValue(result.headers, 'x-request-id'),
      typeof body.type === 'string' ? body.type : undefined,
      Array.isArray(body.errors) ? (body.errors as GathercastError['errors']) : undefined,
      body,
      retryAfter ? Number(retryAfter) : undefined,
    );
  }

  /** The methods of one contract group, unwrapped. */
  resource<K extends keyof Contract>(name: K): ResourceMethods<RawClient[K]> {
    const group = contract[name] as AppRouter;
    const rawGroup = (this.raw as unknown as Record<string, Record<string, (args?: unknown) => Promise<never>>>)[
      name as string
    ]!;
    const out: Record<string, unknown> = {};
    for (const [key, route] of Object.entries(group)) {
      if (!isAppRoute(route as AppRoute)) continue;
      out[key] = async (args?: unknown) => RequestCore.unwrap(await rawGroup[key]!(args));
    }
    return out as never;
  }
}
