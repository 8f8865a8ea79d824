import { escapeHtml } from '../lib/html';
import { type ReferenceGroup, referenceBase } from './reference-groups';

/**
 * The API reference's index (/docs/reference): rendered on the server inside the site's layout, so it
 * paints at once and keeps the site's navigation. It introduces the API and lists every group, its tags
 * and their operations, each linked to the group page that renders it (Redoc).
 */
export function referenceIndexBody(groups: ReferenceGroup[], introHtml: string): string {
  const sections = groups
    .map((g) => {
      const count = g.tags.reduce((n, t) => n + t.operations.length, 0);
      const tags = g.tags
        .map((t) => {
          const ops = t.operations
            .map(
              (op) =>
                `<li><a href="${g.url}#operation/${escapeHtml(op.operationId)}"><span class="method method-${op.method}">${op.method.toUpperCase()}</span> <code>${escapeHtml(op.path)}</code> ${escapeHtml(op.summary)}</a></li>`,
            )
            .join('');
          return `<h3 id="tag-${escapeHtml(t.name)}"><a href="${g.url}#tag/${escapeHtml(t.name)}">${escapeHtml(t.displayName)}</a></h3>
<p>${escapeHtml(t.description)}</p>${ops ? `<ul class="operations">${ops}</ul>` : ''}`;
        })
        .join('\n');
      const webhooks = g.webhookIds.length ? ` and ${g.webhookIds.length} webhooks` : '';
      return `<section class="reference-group">
<h2 id="${g.slug}"><a href="${g.url}">${escapeHtml(g.name)}</a></h2>
<p class="group-summary">${count} operations${webhooks}: <a class="button" href="${g.url}">Open ${escapeHtml(g.name)}</a></p>
${tags}
</section>`;
    })
    .join('\n');
  return `<h1>API reference</h1>
<p class="lead">Every operation of the Gathercast API, in ${groups.length} parts. Each part's page shows its operations with parameters, bodies, answers, errors and samples; the whole document is <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
${introHtml}
${sections}`;
}

/** "On this page": one entry per group. */
export const referenceIndexToc = (groups: ReferenceGroup[]) =>
  groups.map((g) => ({ depth: 2, id: g.slug, text: g.name }));

/**
 * The index's script (/docs/assets/reference-index.js): links made when the reference was one page
 * (`/docs/reference#operation/<id>`, `#tag/<name>`, `#tag/<name>/operation/<id>`) go on to the group
 * page that shows that operation or tag, at the same anchor, on load and when the hash changes. A hash
 * it does not know stays on the index.
 */
export function referenceIndexScript(owners: Record<string, string>): string {
  return `(() => {
  const owners = ${JSON.stringify(owners)};
  const forward = () => {
    let hash;
    try { hash = decodeURIComponent(location.hash.slice(1)); } catch { return; }
    const operation = hash.match(/(?:^|\\/)(operation\\/[^/]+)$/);
    const tag = hash.match(/^(tag\\/[^/]+)/);
    const slug = (operation && owners[operation[1]]) || (tag && owners[tag[1]]);
    if (slug) location.replace(${JSON.stringify(`${referenceBase}/`)} + slug + location.hash);
  };
  forward();
  // An old anchor typed or followed while the index is open changes only the hash.
  addEventListener('hashchange', forward);
})();
`;
}
