import { type Express, type RequestHandler, Router } from 'express';

/** What route introspection (`unmatched-route.ts`) reads: a handler named `router` with its layers. */
type Introspectable = RequestHandler & { stack?: unknown[] };

/**
 * The contract's routes, grouped by method and their first two path segments (`GET /v1/events`), so a
 * request is matched against the dozen routes that could answer it instead of walking all of them:
 * Express tries each registered route's pattern in turn, and with ~80 routes that walk was a visible
 * share of a request's CPU (bench/events). Matching stays Express's own, with its defaults: paths are
 * case-insensitive and a trailing slash is allowed, so the group key is built the same way; HEAD is
 * served by the GET routes.
 *
 * `sink` is what ts-rest registers routes on (`app.get(path, ...handlers)`, and `app.use` for its error
 * handler, passed on to the app); `dispatch` is mounted where the routes belong. To route introspection
 * (`unmatched-route.ts` computing `Allow`) `dispatch` looks like a mounted router: its `stack` lists
 * every grouped route.
 */
export function routeTable(app: Express): { sink: Express; dispatch: RequestHandler } {
  const groups = new Map<string, Router>();
  const all: unknown[] = [];
  const register = (method: 'get' | 'post' | 'put' | 'patch' | 'delete') => (path: string, ...handlers: RequestHandler[]) => {
    const key = groupKey(method.toUpperCase(), path);
    // A parameter in the group key would make the group unreachable: fail at start, not per request.
    if (/[:*(]/.test(key)) throw new Error(`route ${path}: the first two segments must be literal to be grouped`);
    const group = groups.get(key) ?? Router();
    groups.set(key, group);
    group[method](path, ...handlers);
    all.push(group.stack[group.stack.length - 1]);
  };
  const sink = {
    get: register('get'),
    post: register('post'),
    put: register('put'),
    patch: register('patch'),
    delete: register('delete'),
    use: (...args: unknown[]) => (app.use as (...a: unknown[]) => unknown)(...args),
  } as unknown as Express;

  const router: Introspectable = (req, res, next) => {
    const group = groups.get(groupKey(req.method === 'HEAD' ? 'GET' : req.method, req.path));
    if (!group) return next();
    group(req, res, next);
  };
  router.stack = all;
  return { sink, dispatch: router };
}

/** `GET /v1/events/:eventId` → `GET /v1/events`: the method and the first two segments, lower-cased. */
function groupKey(method: string, path: string): string {
  const second = path.indexOf('/', 1);
  const end = second < 0 ? -1 : path.indexOf('/', second + 1);
  return `${method} ${(end < 0 ? path : path.slice(0, end)).toLowerCase()}`;
}

/**
 * A router entered only for paths under one of `prefixes` (compared lower-cased, as Express matches):
 * the health, metrics and docs routers stay out of the way of API requests instead of each walking its
 * routes for every request. Looks like the router itself to route introspection.
 */
export function onlyUnder(prefixes: string[], inner: Router): RequestHandler {
  const lower = prefixes.map((p) => p.toLowerCase());
  const router: Introspectable = (req, res, next) => {
    const path = req.path.toLowerCase();
    if (!lower.some((p) => path.startsWith(p))) return next();
    inner(req, res, next);
  };
  router.stack = inner.stack;
  return router;
}
