import type { RawAnswer, RequestCore, RequestOptions, RouteArgs } from './core';
import { APIPromise, type ApiResponse, type CursorPage, PagePromise } from './response';
import type { RouteGroup } from './routes';

/** Older args spelling (ts-rest's `extraHeaders`), still honoured. */
type AnyArgs = RouteArgs & { extraHeaders?: Record<string, string | undefined> };
const normalise = (args: AnyArgs | undefined): RouteArgs =>
  args?.extraHeaders ? { ...args, headers: { ...args.headers, ...args.extraHeaders } } : (args ?? {});

/**
 * The SDK methods of one route group, typed as `T` (the group's generated interface): each resolves to
 * the success body, a cursor list answers a `PagePromise` that pages on by itself.
 */
export function resource<T>(core: RequestCore, group: RouteGroup): T {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    const call = (args?: AnyArgs, options?: RequestOptions): APIPromise<unknown> => {
      const response = core.request<unknown>(route, normalise(args), options);
      const itemsKey = route.items;
      if (!itemsKey) return new APIPromise(response);
      return new PagePromise(
        response as Promise<ApiResponse<CursorPage>>,
        itemsKey,
        (cursor) => call({ ...args, query: { ...args?.query, cursor } }, options) as PagePromise<CursorPage>,
      );
    };
    methods[name] = call;
  }
  return methods as T;
}

/** The raw methods of one route group: the final `{ status, body, headers }`, never thrown (no retries by default). */
export function rawResource<T>(core: RequestCore, group: RouteGroup): T {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    methods[name] = async (args?: AnyArgs, options?: RequestOptions): Promise<RawAnswer> =>
      (await core.send(route, normalise(args), { maxRetries: 0, ...options })).answer;
  }
  return methods as T;
}
