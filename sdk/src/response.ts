/** Rate-limit values of an answer, from `RateLimit-*` (or `X-RateLimit-*`) headers; absent ones are undefined. */
export interface RateLimit {
  limit?: number;
  remaining?: number;
  /** Seconds until the window resets. */
  reset?: number;
}

/** A success body with what came with it. */
export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
  requestId: string | undefined;
  rateLimit: RateLimit;
  /** The Idempotency-Key sent (every POST carries one), else undefined. */
  idempotencyKey: string | undefined;
  /** The server replayed a stored answer for this key instead of doing the work again. */
  replayed: boolean;
  /** How many times the SDK retried before this answer (0 = first attempt). */
  retries: number;
}

const numberOrUndefined = (value: string | null | undefined) => {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
};

/** Reads `RateLimit-Limit/Remaining/Reset`, the combined `RateLimit: limit=…, remaining=…, reset=…`, or `X-RateLimit-*`. */
export function readRateLimit(headers: Headers): RateLimit {
  const combined = headers.get('ratelimit');
  const field = (name: string) => combined?.match(new RegExp(`(?:^|[;,\\s])${name}=(\\d+)`))?.[1];
  const read = (name: string) =>
    numberOrUndefined(headers.get(`ratelimit-${name}`)) ??
    numberOrUndefined(field(name)) ??
    numberOrUndefined(headers.get(`x-ratelimit-${name}`));
  return { limit: read('limit'), remaining: read('remaining'), reset: read('reset') };
}

/**
 * What every SDK method returns: await it for the body, or call `.withResponse()` for the body with
 * its status, headers, request id, rate-limit values, idempotency key and retry count.
 */
export class APIPromise<T> implements Promise<T> {
  readonly [Symbol.toStringTag] = 'APIPromise';
  constructor(protected readonly response: Promise<ApiResponse<T>>) {}

  withResponse(): Promise<ApiResponse<T>> {
    return this.response;
  }

  // biome-ignore lint/suspicious/noThenProperty: this class is a promise of the body
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: the same signature as Promise#then
    onrejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.response.then((r) => r.data).then(onfulfilled, onrejected);
  }

  // biome-ignore lint/suspicious/noExplicitAny: the same signature as Promise#catch
  catch<B = never>(onrejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }
}

/** A page of a cursor list: its items under one key, and the cursor of the next page (null at the end). */
export type CursorPage = { nextCursor: string | null };
/** The item type of a cursor page (`Event` for `{ events: Event[]; nextCursor }`). */
export type PageItem<P> = {
  [K in keyof P]: K extends 'nextCursor' ? never : P[K] extends ReadonlyArray<infer I> ? I : never;
}[keyof P];

/**
 * A cursor list: await it for one page, or iterate every item across pages (`for await`), or
 * `.collect({ limit })` them into an array.
 */
export class PagePromise<P extends CursorPage, Item = PageItem<P>>
  extends APIPromise<P>
  implements AsyncIterable<Item>
{
  constructor(
    response: Promise<ApiResponse<P>>,
    private readonly itemsKey: string,
    private readonly nextPage: (cursor: string) => PagePromise<P, Item>,
  ) {
    super(response);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    let page: P = await this;
    for (;;) {
      yield* (page as unknown as Record<string, Item[]>)[this.itemsKey] ?? [];
      if (!page.nextCursor) return;
      page = await this.nextPage(page.nextCursor);
    }
  }

  /** Every item across pages, stopping after `limit` (default: all). */
  async collect(options: { limit?: number } = {}): Promise<Item[]> {
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const items: Item[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
