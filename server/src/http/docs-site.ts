import { errorCodes, webhookEventTypes } from '@gathercast/contract';
import { errorIndexBody, errorPageBody, errorPath } from './docs-errors';
import { homeBody } from './docs-home';
import { type NavGroup, page } from './docs-layout';
import { renderMarkdown } from './docs-markdown';
import { clip, operationEntries, type SearchEntry } from './docs-search';
import { guideSources } from './docs-sources';
import { webhookAnchor, webhookCatalogBody, webhookToc } from './docs-webhooks';

/** The whole docs site rendered once: every HTML page by path, and the search index. */
export interface DocsSite {
  pages: Map<string, string>;
  searchIndex: SearchEntry[];
}

const guidePath = (slug: string) => `/docs/guides/${slug}`;

export function buildSite(publicDocument: Record<string, unknown>, errorsBase: string): DocsSite {
  const guides = guideSources();
  const byFile = new Map(guides.map((g) => [g.file, guidePath(g.slug)]));
  // Links between files: a guide or README the site renders, else nothing (rendered as plain text).
  const resolveLink = (repoPath: string) =>
    byFile.get(repoPath) ?? byFile.get(`${repoPath}/README.md`) ?? (repoPath === 'docs/openapi.json' ? '/v1/openapi.json' : undefined);

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
  pages.set('/docs', page({ title: 'Documentation', path: '/docs', nav, body: homeBody() }));

  for (const g of guides) {
    const rendered = renderMarkdown(g.markdown, g.file, resolveLink);
    const path = guidePath(g.slug);
    pages.set(path, page({ title: rendered.title, path, nav, body: rendered.html, toc: rendered.headings }));
    for (const s of rendered.sections) {
      searchIndex.push({ title: s.heading || rendered.title, area: g.label, url: s.id ? `${path}#${s.id}` : path, text: clip(s.text) });
    }
  }

  pages.set('/docs/webhooks', page({ title: 'Webhook catalog', path: '/docs/webhooks', nav, body: webhookCatalogBody(), toc: webhookToc() }));
  for (const type of webhookEventTypes) {
    searchIndex.push({ title: type, area: 'Webhooks', url: `/docs/webhooks#${webhookAnchor(type)}`, text: `webhook ${type}` });
  }

  pages.set('/docs/errors', page({ title: 'Errors', path: '/docs/errors', nav, body: errorIndexBody() }));
  for (const code of errorCodes) {
    const path = errorPath(code);
    const body = errorPageBody(code, errorsBase);
    pages.set(path, page({ title: code, path, nav, body }));
    searchIndex.push({ title: code, area: 'Errors', url: path, text: clip(body.replace(/<[^>]*>/g, ' ')) });
  }
  searchIndex.push(...operationEntries(publicDocument));
  return { pages, searchIndex };
}
