import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/docs/openapi';
import { publicDocument } from '../src/docs/reference';
import { groupDocument, groupSlug, referenceGroups, sectionOwners } from '../src/docs/reference-groups';
import { referenceIndexScript } from '../src/docs/reference-index';

// The API reference in parts: one page per tag group, each over a document holding that group's
// operations and only the components they use; links from when it was one page still arrive.

type Json = Record<string, unknown>;
type Paths = Record<string, Record<string, { operationId?: string; tags?: string[] }>>;

const doc = publicDocument(buildOpenApiDocument(), 'https://api.example.com');
const groups = referenceGroups(doc);
const operationIdsOf = (paths: unknown) =>
  Object.values((paths ?? {}) as Paths).flatMap((item) =>
    Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
  );

/** Every "#/components/…" reference in a value. */
const refsIn = (value: unknown): string[] =>
  [...JSON.stringify(value).matchAll(/"\$ref":"#\/components\/([^"]+)"/g)].map((m) => m[1]!);

describe('reference groups', () => {
  it('are the document’s tag groups, addressed by a readable slug', () => {
    expect(groups.map((g) => g.name)).toEqual((doc['x-tagGroups'] as { name: string }[]).map((g) => g.name));
    expect(groupSlug('After the event')).toBe('after-the-event');
    for (const g of groups) expect(g.url).toMatch(/^\/docs\/reference\/[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(new Set(groups.map((g) => g.slug)).size).toBe(groups.length);
  });

  it('show every operation of the public document in exactly one group page', () => {
    const all = operationIdsOf(doc.paths);
    expect(all.length).toBeGreaterThan(50);
    const shown = groups.flatMap((g) => operationIdsOf(groupDocument(doc, g).paths));
    expect([...shown].sort()).toEqual([...all].sort());
  });

  it('give each page a document with only its group’s tags and operations', () => {
    for (const g of groups) {
      const tags = new Set(g.tags.map((t) => t.name));
      const part = groupDocument(doc, g);
      expect(
        (part.tags as { name: string }[]).every((t) => tags.has(t.name)),
        g.slug,
      ).toBe(true);
      expect(part['x-tagGroups'], g.slug).toEqual([{ name: g.name, tags: [...tags] }]);
      for (const item of Object.values(part.paths as Paths)) {
        for (const op of Object.values(item))
          expect(tags.has(op.tags![0]!), `${g.slug} ${op.operationId}`).toBe(true);
      }
      for (const item of Object.values((part.webhooks ?? {}) as Paths)) {
        for (const op of Object.values(item))
          expect(tags.has(op.tags![0]!), `${g.slug} ${op.operationId}`).toBe(true);
      }
    }
  });

  it('keep exactly the components a page’s operations reach, so each document is small', () => {
    const whole = JSON.stringify(doc).length;
    for (const g of groups) {
      const part = groupDocument(doc, g);
      const components = part.components as Record<string, Json>;
      const defined = new Set(
        Object.entries(components)
          .filter(([kind]) => kind !== 'securitySchemes')
          .flatMap(([kind, entries]) => Object.keys(entries).map((name) => `${kind}/${name}`)),
      );
      const used = new Set(refsIn({ paths: part.paths, webhooks: part.webhooks, components }));
      for (const ref of used) expect(defined, `${g.slug}: ${ref} dangles`).toContain(ref);
      // Reached from the operations themselves (a component used only by a dropped one is gone).
      const reached = new Set(refsIn({ paths: part.paths, webhooks: part.webhooks }));
      for (let grown = true; grown; ) {
        grown = false;
        for (const ref of [...reached]) {
          const [kind, name] = ref.split('/');
          for (const r of refsIn(components[kind!]?.[name!]))
            if (!reached.has(r) && reached.add(r)) grown = true;
        }
      }
      expect(
        [...defined].filter((c) => !reached.has(c)),
        g.slug,
      ).toEqual([]);
      expect(JSON.stringify(part).length, g.slug).toBeLessThan(whole / 2);
    }
  });
});

describe('links from the one-page reference', () => {
  const owners = sectionOwners(groups);
  const script = referenceIndexScript(owners);
  /** Where the index's script sends a browser that opened /docs/reference with this hash (undefined: it stays). */
  const landing = (hash: string) => {
    let replaced: string | undefined;
    const location = { hash, replace: (to: string) => (replaced = to) };
    let onHashChange: (() => void) | undefined;
    const addEventListener = (type: string, listener: () => void) => {
      if (type === 'hashchange') onHashChange = listener;
    };
    vm.runInNewContext(script, { location, addEventListener });
    expect(onHashChange).toBeDefined(); // the same forwarding when only the hash changes
    return replaced;
  };
  const events = groups.find((g) => g.tags.some((t) => t.name === 'events'))!;
  const webhooks = groups.find((g) => g.tags.some((t) => t.name === 'webhooks'))!;
  const eventOperation = events.tags.find((t) => t.name === 'events')!.operations[0]!.operationId;

  it('an operation anchor goes to the group page showing it, same anchor', () => {
    expect(landing(`#operation/${eventOperation}`)).toBe(`${events.url}#operation/${eventOperation}`);
    expect(landing(`#tag/events/operation/${eventOperation}`)).toBe(
      `${events.url}#tag/events/operation/${eventOperation}`,
    );
    expect(landing(`#operation/${webhooks.webhookIds[0]}`)).toBe(
      `${webhooks.url}#operation/${webhooks.webhookIds[0]}`,
    );
  });

  it('a tag anchor goes to its group page', () => {
    expect(landing('#tag/webhooks')).toBe(`${webhooks.url}#tag/webhooks`);
  });

  it('every operation and tag of the document has an owner', () => {
    for (const id of operationIdsOf(doc.paths)) expect(owners[`operation/${id}`], id).toBeDefined();
    for (const t of doc.tags as { name: string }[]) expect(owners[`tag/${t.name}`], t.name).toBeDefined();
  });

  it('no hash, an unknown anchor or a malformed one stays on the index', () => {
    expect(landing('')).toBeUndefined();
    expect(landing('#operation/no.such.operation')).toBeUndefined();
    expect(landing('#section/Authentication')).toBeUndefined();
    expect(landing('#%E0%A4%A')).toBeUndefined();
  });
});
