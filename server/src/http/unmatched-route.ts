import type { Express, RequestHandler } from 'express';
import { problem } from '../lib/problem';

/** The parts of Express 4's router layers read here (public enough: stable across all of Express 4). */
interface Layer {
  name: string;
  path?: string;
  route?: { methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  match(path: string): boolean;
}

/**
 * Requests no route answered: 405 method_not_allowed with `Allow` when the path exists under other
 * methods (read from the app's own routes, so the contract, health and docs routes all count), else
 * 404 not_found. Mount it after every route.
 */
export function unmatchedRoute(app: Express): RequestHandler {
  return (req, _res, next) => {
    const stack = (app as unknown as { _router?: { stack: Layer[] } })._router?.stack ?? [];
    const methods = new Set<string>();
    collectMethods(stack, req.path, methods);
    if (methods.has('GET')) methods.add('HEAD');
    if (methods.size === 0 || methods.has(req.method)) {
      return next(problem('not_found', `No route for ${req.method} ${req.path}`));
    }
    const allow = [...methods].sort();
    next(problem('method_not_allowed', `${req.path} does not take ${req.method}; it takes ${allow.join(', ')}`, { allow }));
  };
}

function collectMethods(stack: Layer[], path: string, into: Set<string>): void {
  for (const layer of stack) {
    if (!layer.match(path)) continue;
    if (layer.route) {
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') into.add(method.toUpperCase());
      }
    } else if (layer.name === 'router' && layer.handle.stack) {
      collectMethods(layer.handle.stack, path.slice(layer.path?.length ?? 0) || '/', into);
    }
  }
}
