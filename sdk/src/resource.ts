import type { RawAnswer, RequestCore, RequestOptions, RouteArgs } from './core';
import { APIPromise, type ApiResponse, type CursorPage, PagePromise } from './response';
import type { Route, RouteGroup } from './routes';

/** Per-call options, and the query of a route that also takes a body. */
type CallOptions = RequestOptions & { query?: Record<string, unknown> };

/**
 * Reads a call's positional arguments: the path ids in path order, then the params object (body or
 * query) when the route takes one, then the options: `retrieve(id, options)`, `update(id, params, options)`.
 */
function readCall(
  name: string,
  route: Route,
  args: unknown[],
): { routeArgs: RouteArgs; input: unknown; options: CallOptions } {
  const ids = route.params ?? [];
  const params: Record<string, unknown> = {};
  ids.forEach((id, i) => {
    const value = args[i];
    if (typeof value !== 'string' && typeof value !== 'number')
      throw new TypeError(
        `${name}: argument ${i + 1} is the path parameter "${id}" of ${route.path} (a string), got ${value === null ? 'null' : typeof value}`,
      );
    params[id] = value;
  });
  const input = route.input ? args[ids.length] : undefined;
  const options = (args[ids.length + (route.input ? 1 : 0)] ?? {}) as CallOptions;
  const { query: extraQuery, ...rest } = options;
  const routeArgs: RouteArgs = { params };
  if (route.input === 'body') routeArgs.body = input;
  if (route.input === 'query') routeArgs.query = input as Record<string, unknown> | undefined;
  if (extraQuery) routeArgs.query = { ...routeArgs.query, ...extraQuery };
  return { routeArgs, input, options: rest };
}

/**
 * The SDK methods of one resource, typed as `T` (its generated interface): each resolves to the
 * success body; a cursor list answers a `PagePromise` that pages on by itself.
 */
export function resource<T>(core: RequestCore, groupName: string, group: RouteGroup): T {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    const call = (...args: unknown[]): APIPromise<unknown> => {
      const { routeArgs, input, options } = readCall(`${groupName}.${name}`, route, args);
      const response = core.request<unknown>(route, routeArgs, options);
      const itemsKey = route.items;
      if (!itemsKey) return new APIPromise(response);
      const ids = args.slice(0, route.params?.length ?? 0);
      return new PagePromise(
        response as Promise<ApiResponse<CursorPage>>,
        itemsKey,
        (cursor) =>
          call(...ids, { ...(input as object | undefined), cursor }, options) as PagePromise<CursorPage>,
      );
    };
    methods[name] = call;
  }
  return methods as T;
}

/** The raw methods of one resource: the final `{ status, body, headers }`, never thrown (no retries by default). */
export function rawResource<T>(core: RequestCore, groupName: string, group: RouteGroup): T {
  const methods: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(group)) {
    methods[name] = async (...args: unknown[]): Promise<RawAnswer> => {
      const { routeArgs, options } = readCall(`${groupName}.${name}`, route, args);
      return (await core.send(route, routeArgs, { maxRetries: 0, ...options })).answer;
    };
  }
  return methods as T;
}
