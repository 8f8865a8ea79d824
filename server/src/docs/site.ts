import { errorCodes, webhookEventTypes } from '@gathercast/contract';
import { errorIndexBody, errorPageBody, errorPath } from './errors';
import { homeBody } from './home';
import { type NavGroup, page } from './layout';
import { renderMarkdown } from './markdown';
import { groupDocument, referenceBase, referenceGroups, sectionOwners } from './reference-groups';
import { referenceGroupPage } from './reference';
import { referenceIndexBody, referenceIndexScript, referenceIndexToc } from './reference-index';
import { clip, operationEntries, type SearchEntry } from './search';
import { guideSources } from './sources';
import { webhookAnchor, webhookCatalogBody, webhookToc } from './webhooks';

/** The whole docs site rendered once: every HTML page by path, and the search index. */
export interface DocsSite {
  pages: Map<string, string>;
  /** What a browser gets, with a 404, for a /docs path that is no page. */
  notFoundPage: string;
  searchIndex: SearchEntry[];
  /** Each reference group's OpenAPI document (JSON), by group slug. */
  referenceDocuments: Map<string, string>;
  /** The reference index's script: old one-page anchors go on to their group page. */
  referenceIndexScript: string;
}

const guidePath = (slug: string) => `/docs/guides/${slug}`;

/**
 * The guides' Markdown addresses the API as `pnpm start` serves it by default (`http://localhost:3000`,
 * PORT's default), so it runs as written on a fresh clone; the site shows the address of the server
 * serving it instead (PUBLIC_BASE_URL), as the reference's samples do.
 */
export const withBaseUrl = (text: string, baseUrl: string) =>
  text.replace(/(?:http:\/\/)?localhost:3000\b/g, baseUrl);

export function buildSite(publicDocument: Record<string, unknown>, errorsBase: string): DocsSite {
  const baseUrl = errorsBase.replace(/\/docs\/errors$/, '');
  const guides = guideSources().map((g) => ({ ...g, markdown: withBaseUrl(g.markdown, baseUrl) }));
  const byFile = new Map(guides.map((g) => [g.file, guidePath(g.slug)]));
  // Links between files: a guide or README the site renders, else nothing (rendered as plain text).
  const resolveLink = (repoPath: string) =>
    byFile.get(repoPath) ??
    byFile.get(`${repoPath}/README.md`) ??
    (repoPath === 'docs/openapi.json' ? '/v1/openapi.json' : undefined);

  const nav: NavGroup[] = [];
  for (const g of guides) {
    let group = nav.find((n) => n.title === g.group);
    if (!group) {
      group = { title: g.group, links: [] };
      nav.push(group);
    }
    group.links.push({ href: guidePath(g.slug), label: g.label });
  }
  const reference: NavGroup = {
    title: 'Reference',
    links: [
      { href: '/docs/reference', label: 'API reference' },
      { href: '/docs/webhooks', label: 'Webhook catalog' },
      { href: '/docs/errors', label: 'Errors' },
    ],
  };
  nav.splice(Math.min(2, nav.length), 0, reference);

  const pages = new Map<string, string>();
  const searchIndex: SearchEntry[] = [];
  pages.set(
    '/docs',
    page({ title: 'Documentation', path: '/docs', nav, body: withBaseUrl(homeBody(), baseUrl) }),
  );

  for (const g of guides) {
    const rendered = renderMarkdown(g.markdown, g.file, resolveLink);
    const path = guidePath(g.slug);
    pages.set(path, page({ title: rendered.title, path, nav, body: rendered.html, toc: rendered.headings }));
    for (const s of rendered.sections) {
      searchIndex.push({
        title: s.heading || rendered.title,
        area: g.label,
        url: s.id ? `${path}#${s.id}` : path,
        text: clip(s.text),
      });
    }
  }

  pages.set(
    '/docs/webhooks',
    page({
      title: 'Webhook catalog',
      path: '/docs/webhooks',
      nav,
      body: webhookCatalogBody(),
      toc: webhookToc(),
    }),
  );
  for (const type of webhookEventTypes) {
    searchIndex.push({
      title: type,
      area: 'Webhooks',
      url: `/docs/webhooks#${webhookAnchor(type)}`,
      text: `webhook ${type}`,
    });
  }

  pages.set('/docs/errors', page({ title: 'Errors', path: '/docs/errors', nav, body: errorIndexBody() }));
  for (const code of errorCodes) {
    const path = errorPath(code);
    const body = errorPageBody(code, errorsBase);
    pages.set(path, page({ title: code, path, nav, body }));
    searchIndex.push({ title: code, area: 'Errors', url: path, text: clip(body.replace(/<[^>]*>/g, ' ')) });
  }
  const groups = referenceGroups(publicDocument);
  const owners = sectionOwners(groups);
  const referenceDocuments = new Map<string, string>();
  const intro = renderMarkdown(
    String((publicDocument.info as { description?: string } | undefined)?.description ?? ''),
    'docs/openapi.json',
    resolveLink,
  );
  pages.set(
    referenceBase,
    page({
      title: 'API reference',
      path: referenceBase,
      nav,
      body: referenceIndexBody(groups, intro.html),
      toc: referenceIndexToc(groups),
      scripts: ['/docs/assets/reference-index.js'],
    }),
  );
  for (const g of groups) {
    pages.set(g.url, referenceGroupPage(g, groups));
    referenceDocuments.set(g.slug, JSON.stringify(groupDocument(publicDocument, g)));
  }
  searchIndex.push(...operationEntries(publicDocument, owners));
  const notFoundPage = page({
    title: 'Page not found',
    path: '/docs/404',
    nav,
    body: `<h1>Page not found</h1>
<p class="lead">There is no documentation page at this address: it may have moved, or the link has a typo.</p>
<p>Start from the <a href="/docs">documentation home</a>, search above, or open the <a href="/docs/reference">API reference</a>.</p>`,
  });
  return {
    pages,
    notFoundPage,
    searchIndex,
    referenceDocuments,
    referenceIndexScript: referenceIndexScript(owners),
  };
}
