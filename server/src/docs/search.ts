import { operationUrl } from './reference-groups';

/**
 * The search index the docs pages load (GET /docs/search-index.json) and search in the browser:
 * one entry per guide section, operation, webhook type and error code. Small enough to ship whole.
 */
export interface SearchEntry {
  /** What the result shows first: the section heading, operation summary, code… */
  title: string;
  /** Where it lives: the guide, "API reference", "Webhooks", "Errors". */
  area: string;
  url: string;
  /** Plain text to match and to cut a snippet from. */
  text: string;
}

const maxText = 1200;

export const clip = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, maxText);

/** One entry per operation, linked to the reference page that shows it (`owners`: see reference-groups). */
export function operationEntries(
  document: Record<string, unknown>,
  owners: Record<string, string>,
): SearchEntry[] {
  const entries: SearchEntry[] = [];
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<string, { operationId?: string; summary?: string; description?: string; tags?: string[] }>
  >;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      entries.push({
        title: op.summary ?? `${method.toUpperCase()} ${path}`,
        area: 'API reference',
        url: operationUrl(owners, op.operationId),
        text: clip(`${method.toUpperCase()} ${path} ${op.tags?.join(' ') ?? ''} ${op.description ?? ''}`),
      });
    }
  }
  return entries;
}
