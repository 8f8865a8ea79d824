import type { Contract } from '@gathercast/contract';
import type { InitClientReturn } from '@ts-rest/core';
import type { RawAnswer, RequestCore, RequestOptions, RouteArgs } from './core';
import { APIPromise, type ApiResponse, type CursorPage, PagePromise } from './response';
import type { Route } from './routes';

/** The contract's routes as ts-rest types them: `(args) => Promise<{ status, body, headers }>`. */
export type RawClient = InitClientReturn<Contract, { baseUrl: string; baseHeaders: Record<string, string> }>;

type Success = 200 | 201 | 202 | 204 | 302;
type SuccessBody<R> = R extends { status: Success; body: infer B } ? B : never;
type Returned<B> = [B] extends [CursorPage] ? PagePromise<B> : APIPromise<B>;

/** One route as an SDK method: the route's arguments, then per-call options; resolves to the success body. */
export type Method<F> = F extends (...args: infer A) => Promise<infer R>
  ? (...args: [...A, options?: RequestOptions]) => Returned<SuccessBody<R>>
  : never;

export type ResourceMethods<R> = { [K in keyof R]: Method<R[K]> };

/** Legacy args spelling (ts-rest's `extraHeaders`), still honoured. */
type AnyArgs = RouteArgs & { extraHeaders?: Record<string, string | undefined> };
const normalise = (args: AnyArgs | undefined): RouteArgs =>
  args?.extraHeaders ? { ...args, headers: { ...args.headers, ...args.extraHeaders } } : (args ?? {});

/** The SDK methods of one route group. */
export function resourceMethods(core: RequestCore, group: Record<string, Route>): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    const call = (args?: AnyArgs, options?: RequestOptions): APIPromise<unknown> => {
      const response = core.request<unknown>(route, normalise(args), options);
      const itemsKey = route.items;
      if (!itemsKey) return new APIPromise(response);
      return new PagePromise(response as Promise<ApiResponse<CursorPage>>, itemsKey, (cursor) =>
        call({ ...args, query: { ...args?.query, cursor } }, options) as PagePromise<CursorPage>,
      );
    };
    methods[name] = call;
  }
  return methods;
}

/** The raw methods of one route group: the final `{ status, body, headers }`, never thrown (no retries by default). */
export function rawMethods(core: RequestCore, group: Record<string, Route>): Record<string, unknown> {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    methods[name] = async (args?: AnyArgs, options?: RequestOptions): Promise<RawAnswer> =>
      (await core.send(route, normalise(args), { maxRetries: 0, ...options })).answer;
  }
  return methods;
}
