/**
 * The SDK's verb table: how each contract route becomes an SDK method. Read by the SDK's generator
 * (sdk/scripts/generate-api.ts, which writes sdk/src/generated/api.ts), the reference's code samples
 * and the repository's codemod (scripts/sdk-codemod.mjs, which converts call sites), so none can disagree.
 *
 * A method's shape: path parameters positional in path order, then one `params` object (the JSON body,
 * or the query of a GET), then per-call options: `gc.events.update(id, { title }, { timeout })`.
 *
 * Its name (sdk/README.md, "Method names"):
 *   GET     a cursor list or array            list | list<Name>      (a sub-collection keeps its noun)
 *   GET     one item of the group's collection retrieve
 *   GET     anything else                     retrieve<Name>          (get<X> reads as retrieve<X>)
 *   POST    create… stays; append/add         create…
 *   PATCH   edit/patch                        update
 *   DELETE  remove/revoke/destroy             delete
 *   any     other names                       the contract's name: a named action (publish, leave, rotateSecret)
 * Not shipped: routes that only redirect a browser (3xx answers) and development-only routes (/v1/dev/…).
 */

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SdkRoute {
  /** The contract group, and the SDK resource (`events`). */
  group: string;
  /** The contract's route name (`get`). */
  name: string;
  /** The SDK method (`retrieve`). */
  sdkName: string;
  method: HttpMethod;
  path: string;
  /** The path's parameter names, in path order (`['id', 'membershipId']`). */
  pathParams: string[];
  /** What the SDK calls each of them (`['eventId', 'membershipId']`). */
  labels: string[];
  /** What the `params` argument is. */
  input: 'body' | 'query' | undefined;
  /** A route with a body and a query: the query goes in options.query. */
  extraQuery: boolean;
  /** The top-level fields of the params object, when it is an object. */
  inputKeys: string[];
  /** For a cursor list: the key of the page's items. */
  items: string | undefined;
  /** Why the route is not an SDK method. */
  excluded: string | undefined;
}

/** What the table reads of a route (ts-rest's AppRoute, loosely). */
interface RouteLike {
  method: string;
  path: string;
  query?: unknown;
  body?: unknown;
  responses: Record<number, unknown>;
}
type ZodLike = {
  _def: { typeName?: string; schema?: unknown; innerType?: unknown; in?: unknown };
  shape?: unknown;
};

const isZod = (schema: unknown): schema is ZodLike =>
  typeof schema === 'object' && schema !== null && '_def' in schema;

/** The object shape under optional/effects/default wrappers, or undefined when the schema is not an object. */
function shapeOf(schema: unknown): Record<string, ZodLike> | undefined {
  let current: unknown = schema;
  for (let depth = 0; isZod(current) && depth < 10; depth++) {
    if (current.shape && typeof current.shape === 'object') return current.shape as Record<string, ZodLike>;
    const def = current._def;
    current = def.schema ?? def.innerType ?? def.in;
  }
  return undefined;
}

const successCodes = (route: RouteLike) =>
  Object.keys(route.responses)
    .map(Number)
    .filter((status) => status >= 200 && status < 400);

const capitalise = (word: string) => (word ? `${word[0].toUpperCase()}${word.slice(1)}` : word);
const camel = (segment: string) => segment.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const singular = (word: string) =>
  word.endsWith('ies')
    ? `${word.slice(0, -3)}y`
    : word.endsWith('ses')
      ? word.slice(0, -2)
      : word.replace(/s$/, '');

/** The cursor list's items key: the route takes `cursor` and answers `{ <items>: [...], nextCursor }`. */
function itemsKey(route: RouteLike): string | undefined {
  const page = shapeOf(route.responses[200]);
  if (!shapeOf(route.query)?.cursor || !page?.nextCursor) return undefined;
  return Object.keys(page).find((key) => key !== 'nextCursor');
}

/** A list: a cursor page, a bare array, or an object of one array (`{ members: [...] }`). */
function isList(route: RouteLike): boolean {
  if (itemsKey(route)) return true;
  const ok = route.responses[200];
  if (!isZod(ok)) return false;
  if (ok._def.typeName === 'ZodArray') return true;
  const shape = shapeOf(ok);
  const keys = shape ? Object.keys(shape) : [];
  return keys.length === 1 && shape?.[keys[0]!]?._def.typeName === 'ZodArray';
}

/** `/v1/events/:id/memberships/:membershipId` → segments with the collection each parameter belongs to. */
function parse(path: string) {
  const segments = path.split('/').filter(Boolean);
  const params: { name: string; collection: string }[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith(':'))
      params.push({ name: segment.slice(1), collection: camel(segments[i - 1] ?? '') });
  });
  return { segments, params };
}

/** Contract verbs that mean one of the table's, by HTTP method. */
const synonyms: Record<string, Record<string, string>> = {
  GET: { get: 'retrieve' },
  POST: { append: 'create', add: 'create' },
  PUT: { edit: 'update', patch: 'update', replace: 'update' },
  PATCH: { edit: 'update', patch: 'update' },
  DELETE: { remove: 'delete', revoke: 'delete', destroy: 'delete' },
};

/** The leading verb of a camelCase name and the rest (`listDeliveries` → `list`, `Deliveries`). */
const split = (name: string): [string, string] => {
  const match = /^([a-z]+)(.*)$/.exec(name);
  return match ? [match[1]!, match[2]!] : [name, ''];
};

/** The SDK method name of one contract route (see the table above). */
export function sdkMethodName(group: string, name: string, route: RouteLike): string {
  const [verb, rest] = split(name);
  const method = route.method;
  if (method === 'GET') {
    if (verb === 'list' || verb === 'retrieve') return name;
    if (isList(route)) return name === 'list' ? 'list' : `list${capitalise(name)}`;
    if (verb === 'get') return `retrieve${rest}`;
    const { segments } = parse(route.path);
    const last = segments.at(-1) ?? '';
    const owner = camel(segments.at(-2) ?? '');
    if ((last.startsWith(':') || last === 'me') && owner === group) return 'retrieve';
    return `retrieve${capitalise(name)}`;
  }
  const canonical = synonyms[method]?.[verb];
  return canonical ? `${canonical}${rest}` : name;
}

/** The SDK's name of each path parameter: `:id` of another collection reads `<singular>Id` (`eventId`). */
function labelsOf(group: string, path: string): string[] {
  return parse(path).params.map(({ name, collection }) =>
    name === 'id' && collection !== group && collection ? `${singular(collection)}Id` : name,
  );
}

/**
 * Every contract route with its SDK method, in contract order. Throws when two routes of one group
 * would get the same SDK name (rename one in the contract).
 */
export function sdkRoutes(contract: object): SdkRoute[] {
  const out: SdkRoute[] = [];
  for (const [group, members] of Object.entries(contract as Record<string, Record<string, RouteLike>>)) {
    const taken = new Map<string, string>();
    for (const [name, route] of Object.entries(members)) {
      const codes = successCodes(route);
      const excluded = route.path.startsWith('/v1/dev/')
        ? 'development only'
        : codes.length > 0 && codes.every((code) => code >= 300)
          ? 'a browser redirect'
          : undefined;
      const sdkName = sdkMethodName(group, name, route);
      if (!excluded) {
        if (taken.has(sdkName))
          throw new Error(
            `${group}.${name} and ${group}.${taken.get(sdkName)} would both be the SDK method ${group}.${sdkName}: rename one of them in the contract`,
          );
        taken.set(sdkName, name);
      }
      const hasBody = route.method !== 'GET' && isZod(route.body);
      const hasQuery = isZod(route.query);
      const input = hasBody ? 'body' : hasQuery ? 'query' : undefined;
      const inputShape = shapeOf(input === 'body' ? route.body : route.query);
      out.push({
        group,
        name,
        sdkName,
        method: route.method as HttpMethod,
        path: route.path,
        pathParams: parse(route.path).params.map((p) => p.name),
        labels: labelsOf(group, route.path),
        input,
        extraQuery: hasBody && hasQuery,
        inputKeys: inputShape ? Object.keys(inputShape) : [],
        items: itemsKey(route),
        excluded,
      });
    }
  }
  return out;
}
