import { contract } from '@gathercast/contract';

/** What the SDK needs of one contract route to call it. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** For a cursor list: the key of the page's items (the page also has `nextCursor`). */
  items?: string;
}

export type RouteTable = Record<string, Record<string, Route>>;

type Shape = Record<string, unknown>;
const shapeOf = (schema: unknown): Shape | undefined =>
  (schema as { shape?: Shape } | undefined)?.shape;

/** The cursor list's items key: the route takes `cursor` and answers `{ <items>: [...], nextCursor }`. */
function itemsKey(route: { query?: unknown; responses: Record<number, unknown> }): string | undefined {
  const page = shapeOf(route.responses[200]);
  if (!shapeOf(route.query)?.cursor || !page?.nextCursor) return undefined;
  return Object.keys(page).find((key) => key !== 'nextCursor');
}

/** Every route of the contract, by group and name. */
export const routes: RouteTable = Object.fromEntries(
  Object.entries(contract).map(([group, members]) => [
    group,
    Object.fromEntries(
      Object.entries(members as Record<string, { method: Route['method']; path: string; query?: unknown; responses: Record<number, unknown> }>).map(
        ([name, route]) => [name, { method: route.method, path: route.path, items: itemsKey(route) }],
      ),
    ),
  ]),
);
