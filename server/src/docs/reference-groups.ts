import { documentSubset } from './openapi-subset';

/**
 * The API reference in pieces: one page per tag group of the public document (`x-tagGroups`), at
 * /docs/reference/<group slug>, each over its own document (that group's operations and the components
 * they use). Every operation and tag belongs to exactly one group: the one listing its (first) tag.
 */

type Json = Record<string, unknown>;

export interface ReferenceOperation {
  operationId: string;
  method: string;
  path: string;
  summary: string;
}

export interface ReferenceTag {
  name: string;
  displayName: string;
  description: string;
  operations: ReferenceOperation[];
}

export interface ReferenceGroup {
  name: string;
  slug: string;
  /** /docs/reference/<slug> */
  url: string;
  tags: ReferenceTag[];
  /** Operation ids of the webhooks (the document's `webhooks` section) whose tag is in this group. */
  webhookIds: string[];
}

export const referenceBase = '/docs/reference';

/** "After the event" → "after-the-event". */
export const groupSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

type PathItems = Record<string, Record<string, { operationId?: string; summary?: string; tags?: string[] }>>;

/** The groups of a (public) document, in its `x-tagGroups` order, each tag with its operations in document order. */
export function referenceGroups(document: Json): ReferenceGroup[] {
  const tagInfo = new Map(
    ((document.tags ?? []) as { name: string; 'x-displayName'?: string; description?: string }[]).map((t) => [
      t.name,
      t,
    ]),
  );
  const byTag = new Map<string, ReferenceOperation[]>();
  const webhooksByTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as PathItems)) {
    for (const [method, op] of Object.entries(item)) {
      const tag = op?.tags?.[0];
      if (!op?.operationId || !tag) continue;
      const list = byTag.get(tag) ?? [];
      list.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary ?? `${method.toUpperCase()} ${path}`,
      });
      byTag.set(tag, list);
    }
  }
  for (const item of Object.values((document.webhooks ?? {}) as PathItems)) {
    for (const op of Object.values(item)) {
      const tag = op?.tags?.[0];
      if (tag && op.operationId) webhooksByTag.set(tag, [...(webhooksByTag.get(tag) ?? []), op.operationId]);
    }
  }
  return ((document['x-tagGroups'] ?? []) as { name: string; tags: string[] }[]).map((g) => {
    const slug = groupSlug(g.name);
    return {
      name: g.name,
      slug,
      url: `${referenceBase}/${slug}`,
      tags: g.tags.map((name) => ({
        name,
        displayName: tagInfo.get(name)?.['x-displayName'] ?? name,
        description: tagInfo.get(name)?.description ?? '',
        operations: byTag.get(name) ?? [],
      })),
      webhookIds: g.tags.flatMap((t) => webhooksByTag.get(t) ?? []),
    };
  });
}

/**
 * The document of one group's page: its operations and components only. The API's introduction lives
 * on the reference index; the group document says which part of the reference it is.
 */
export function groupDocument(document: Json, group: ReferenceGroup): Json {
  const subset = documentSubset(
    document,
    group.tags.map((t) => t.name),
  );
  const info = (subset.info ?? {}) as Json;
  subset.info = {
    ...info,
    title: `${info.title ?? 'API'}: ${group.name}`,
    description: `One part of the Gathercast API reference. The [reference index](${referenceBase}) introduces authentication, errors, request ids and retries, and lists every part.`,
  };
  return subset;
}

/** Which group page shows each operation and each tag: `operation/<id>` and `tag/<name>` → slug. */
export function sectionOwners(groups: ReferenceGroup[]): Record<string, string> {
  const owners: Record<string, string> = {};
  for (const g of groups) {
    for (const tag of g.tags) {
      owners[`tag/${tag.name}`] = g.slug;
      for (const op of tag.operations) owners[`operation/${op.operationId}`] = g.slug;
    }
    for (const id of g.webhookIds) owners[`operation/${id}`] = g.slug;
  }
  return owners;
}

/** Where an operation is shown: its group page, at Redoc's anchor for it. */
export function operationUrl(owners: Record<string, string>, operationId: string): string {
  const slug = owners[`operation/${operationId}`];
  return slug ? `${referenceBase}/${slug}#operation/${operationId}` : referenceBase;
}
