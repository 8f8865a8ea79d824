import { routes as generatedRoutes } from './generated/api';

/** What the SDK needs of one contract route to call it (generated from the contract by the verb table). */
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  /** The path's parameters in path order: the method's leading positional arguments. */
  params?: readonly string[];
  /** What the `params` argument after the path ids is: the JSON body, or the query string of a GET. */
  input?: 'body' | 'query';
  /** For a cursor list: the key of the page's items (the page also has `nextCursor`). */
  items?: string;
}

export type RouteGroup = Readonly<Record<string, Route>>;

/** Every SDK method's route, by resource and method name: plain data (no schemas at runtime). */
export const routes: { readonly [G in keyof typeof generatedRoutes]: RouteGroup } = generatedRoutes;
