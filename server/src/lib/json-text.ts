/**
 * A response body that is already JSON text (rendered by PostgreSQL, see `db/json-rows.ts`). The
 * HTTP layer sends the text as it is (`http/json-responses.ts`) instead of serializing an object.
 * `T` is the shape the text encodes: handlers return it as their typed body via `asBody`.
 */
export class JsonText<T> {
  declare readonly encodes?: T;
  constructor(readonly text: string) {}

  /** The value as a ts-rest handler body of the type it encodes; it still travels as this JsonText. */
  asBody(): T {
    return this as unknown as T;
  }
}

/**
 * `{"<key>":[<items>],…rest}`: `items` is the array's JSON elements, comma-separated; `rest` is
 * serialized here. The text is what JSON.stringify would print for the whole object.
 */
export function jsonPage<T>(key: string, items: string, rest: Record<string, unknown>): JsonText<T> {
  const tail = JSON.stringify(rest);
  return new JsonText<T>(`{${JSON.stringify(key)}:[${items}]${tail === '{}' ? '}' : `,${tail.slice(1)}`}`);
}
