import { routes as contractRoutes } from './generated/api';

/** What the SDK needs of one contract route to call it. */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** For a cursor list: the key of the page's items (the page also has `nextCursor`). */
  items?: string;
}

export type RouteGroup = Readonly<Record<string, Route>>;

/** Every route of the contract, by group and name: plain data generated from the contract (no schemas at runtime). */
export const routes: { readonly [G in keyof typeof contractRoutes]: RouteGroup } = contractRoutes;
