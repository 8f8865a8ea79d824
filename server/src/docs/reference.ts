import { addCodeSamples } from './code-samples';
import { escapeHtml } from '../lib/html';
import { head, topBar } from './layout';
import { type ReferenceGroup, referenceBase } from './reference-groups';

/**
 * The API reference: Redoc (served from the `redoc` package, no CDN) over the public OpenAPI document.
 * Operations tagged `dev` (email dev mode helpers) are development tools, not the product's API, and
 * are left out of the reference even if the served document lists them. Each operation gets curl and
 * SDK samples addressed to this server.
 */
export function publicDocument(document: Record<string, unknown>, baseUrl: string): Record<string, unknown> {
  const doc = structuredClone(document) as {
    paths?: Record<string, Record<string, { tags?: string[] }>>;
    tags?: { name: string }[];
  };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation && typeof operation === 'object' && operation.tags?.includes('dev')) delete item[method];
    }
    if (
      !Object.keys(item).some((k) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(k))
    ) {
      delete doc.paths?.[path];
    }
  }
  if (doc.tags) doc.tags = doc.tags.filter((t) => t.name !== 'dev');
  addCodeSamples(doc as Record<string, unknown>, baseUrl);
  return doc as Record<string, unknown>;
}

/** Operation ids of a document, in document order (the browser test checks each is shown). */
export function operationIds(document: Record<string, unknown>): string[] {
  const ids: string[] = [];
  for (const item of Object.values(
    (document.paths ?? {}) as Record<string, Record<string, { operationId?: string }>>,
  )) {
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && operation.operationId)
        ids.push(operation.operationId);
    }
  }
  return ids;
}

/**
 * One part of the reference: the site's top bar, a strip naming every part (this one current, the index
 * first), and Redoc over this part's own document. Scripts are deferred: the bar paints before Redoc runs.
 */
export function referenceGroupPage(group: ReferenceGroup, groups: ReferenceGroup[]): string {
  const parts = groups
    .map(
      (g) =>
        `<a href="${g.url}"${g.slug === group.slug ? ' class="current" aria-current="page"' : ''}>${escapeHtml(g.name)}</a>`,
    )
    .join('');
  return `${head(`${group.name} · API reference`, `The ${group.name} operations of the Gathercast API, with their parameters, bodies, answers and errors.`)}
<body class="reference-page">
${topBar(group.url)}
<nav class="reference-parts" aria-label="Parts of the API reference"><a href="${referenceBase}">All parts</a>${parts}</nav>
<div id="redoc" class="redoc-container" data-spec="${group.url}/openapi.json"><p class="loading">Loading ${escapeHtml(group.name)}…</p></div>
<script src="/docs/assets/redoc.standalone.js" defer></script>
<script src="/docs/assets/site.js" defer></script>
<script src="/docs/assets/reference.js" defer></script>
</body>
</html>`;
}

/** Redoc's options: the site's colours and fonts, the top bar as scroll offset; the document the page names. */
export const referenceScript = `Redoc.init(document.getElementById('redoc').dataset.spec, {
  scrollYOffset: '.reference-parts',
  nativeScrollbars: true,
  payloadSampleIdx: 2,
  jsonSampleExpandLevel: 3,
  hideHostname: true,
  pathInMiddlePanel: true,
  menuToggle: true,
  sortPropsAlphabetically: false,
  theme: {
    spacing: { unit: 5, sectionHorizontal: 32, sectionVertical: 20 },
    colors: { primary: { main: '#4f46e5' }, success: { main: '#059669' }, error: { main: '#dc2626' }, text: { primary: '#0f172a', secondary: '#475569' }, border: { dark: '#e2e8f0', light: '#f1f5f9' } },
    typography: {
      fontSize: '15px', lineHeight: '1.6', fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      headings: { fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif', fontWeight: '650' },
      code: { fontSize: '13px', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace', color: '#be185d', backgroundColor: '#f1f5f9' },
      links: { color: '#4f46e5' },
    },
    sidebar: { width: '270px', backgroundColor: '#f8fafc', textColor: '#334155', activeTextColor: '#4f46e5' },
    rightPanel: { backgroundColor: '#0f172a', width: '42%', textColor: '#e2e8f0' },
    codeBlock: { backgroundColor: '#020617' },
  },
}, document.getElementById('redoc'));
`;
