/**
 * A smaller OpenAPI document cut from a larger one: only the operations (paths and webhooks) tagged with
 * one of some tags, and only the components they reach through `$ref` (followed transitively) and the
 * security schemes they name. Redoc renders a whole document before its first operation shows, so the
 * reference's pages each get a document no bigger than what they show.
 */

type Json = Record<string, unknown>;
type Operations = Record<string, Record<string, unknown>>;

const httpMethods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** The path items (or webhooks) keeping only operations tagged with one of `tags`; empty items dropped. */
function keepTagged(items: Operations | undefined, tags: Set<string>): Operations {
  const kept: Operations = {};
  for (const [key, item] of Object.entries(items ?? {})) {
    const entries = Object.entries(item).filter(([method, op]) => {
      if (!httpMethods.has(method)) return true; // shared `parameters`, `summary`…
      return ((op as { tags?: string[] }).tags ?? []).some((t) => tags.has(t));
    });
    if (entries.some(([method]) => httpMethods.has(method))) kept[key] = Object.fromEntries(entries);
  }
  return kept;
}

/** Every `#/components/<kind>/<name>` reference inside a value, as "kind/name". */
function collectRefs(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) {
        into.add(v.slice('#/components/'.length));
      } else {
        collectRefs(v, into);
      }
    }
  }
}

/** The security scheme names operations list under `security`. */
function securityNames(items: Operations[]): Set<string> {
  const names = new Set<string>();
  for (const group of items) {
    for (const item of Object.values(group)) {
      for (const op of Object.values(item)) {
        for (const requirement of ((op as { security?: Json[] })?.security ?? []) as Json[]) {
          for (const name of Object.keys(requirement)) names.add(name);
        }
      }
    }
  }
  return names;
}

/** The components reached from `roots`, following references inside components until nothing new appears. */
function reachableComponents(components: Record<string, Json>, roots: unknown[]): Record<string, Json> {
  const reached = new Set<string>();
  collectRefs(roots, reached);
  const pending = [...reached];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    const [kind, ...rest] = ref.split('/');
    const found = new Set<string>();
    collectRefs(components[kind!]?.[rest.join('/')], found);
    for (const r of found) {
      if (!reached.has(r)) {
        reached.add(r);
        pending.push(r);
      }
    }
  }
  const kept: Record<string, Json> = {};
  for (const ref of reached) {
    const [kind, ...rest] = ref.split('/');
    const name = rest.join('/');
    const component = components[kind!]?.[name];
    if (component === undefined) continue;
    kept[kind!] ??= {};
    kept[kind!]![name] = component;
  }
  return kept;
}

/**
 * `document` restricted to the operations tagged with one of `tags` (its `tags` and `x-tagGroups`
 * restricted alike), with the components those operations use and no others. The source is not changed.
 */
export function documentSubset(document: Json, tags: string[]): Json {
  const wanted = new Set(tags);
  const paths = keepTagged(document.paths as Operations | undefined, wanted);
  const webhooks = keepTagged(document.webhooks as Operations | undefined, wanted);
  const components = (document.components ?? {}) as Record<string, Json>;
  const kept = reachableComponents(components, [paths, webhooks]);
  const schemes = securityNames([paths, webhooks]);
  const securitySchemes = Object.fromEntries(
    Object.entries(components.securitySchemes ?? {}).filter(([name]) => schemes.has(name)),
  );
  if (Object.keys(securitySchemes).length) kept.securitySchemes = securitySchemes;
  const subset: Json = structuredClone({
    ...document,
    tags: ((document.tags ?? []) as { name: string }[]).filter((t) => wanted.has(t.name)),
    'x-tagGroups': ((document['x-tagGroups'] ?? []) as { name: string; tags: string[] }[])
      .map((g) => ({ ...g, tags: g.tags.filter((t) => wanted.has(t)) }))
      .filter((g) => g.tags.length),
    paths,
    components: kept,
  });
  if (Object.keys(webhooks).length) subset.webhooks = webhooks;
  else delete subset.webhooks;
  return subset;
}
