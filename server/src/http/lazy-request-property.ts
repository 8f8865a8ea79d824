import type { Express, Request } from 'express';

/**
 * Gives every request of `app` a property made on first read (and kept on the request from then on),
 * or set outright by whoever has its value first: per-request objects that most requests never need
 * (a logger child, an entity-manager fork) cost nothing on the requests that do without them.
 */
export function lazyRequestProperty<K extends keyof Request>(
  app: Express,
  name: K,
  make: (req: Request) => Request[K],
): void {
  const own = (req: Request, value: Request[K]) =>
    Object.defineProperty(req, name, { value, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(app.request, name, {
    configurable: true,
    get(this: Request) {
      const value = make(this);
      own(this, value);
      return value;
    },
    set(this: Request, value: Request[K]) {
      own(this, value);
    },
  });
}
