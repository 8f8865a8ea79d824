/** The page shell every docs page shares: top bar with search, the sidebar, the content, "On this page". */

import { escapeHtml } from '../lib/html';

export interface NavLink {
  href: string;
  label: string;
}

export interface NavGroup {
  title: string;
  links: NavLink[];
}

export interface PageOptions {
  title: string;
  /** The path of this page, to highlight it in the sidebar. */
  path: string;
  nav: NavGroup[];
  /** The page's main HTML. */
  body: string;
  /** "On this page" entries (h2/h3 ids). */
  toc?: { depth: number; id: string; text: string }[];
  description?: string;
  /** Page scripts beyond the site's own, loaded deferred like it. */
  scripts?: string[];
}

const topLinks: NavLink[] = [
  { href: '/docs/guides/quickstart', label: 'Quick start' },
  { href: '/docs/guides/authentication', label: 'Guides' },
  { href: '/docs/reference', label: 'API reference' },
  { href: '/docs/webhooks', label: 'Webhooks' },
  { href: '/docs/errors', label: 'Errors' },
];

export function topBar(path: string): string {
  const links = topLinks
    .map((l) => `<a href="${l.href}"${isCurrentSection(path, l.href) ? ' class="current"' : ''}>${l.label}</a>`)
    .join('');
  return `<header class="topbar">
  <button class="nav-toggle" type="button" aria-label="Menu">&#9776;</button>
  <a class="brand" href="/docs"><span class="logo" aria-hidden="true"></span>Gathercast <span class="brand-sub">Docs</span></a>
  <nav class="toplinks" aria-label="Sections">${links}</nav>
  <div class="search" role="search">
    <input id="search-input" type="search" placeholder="Search the docs" aria-label="Search the docs" autocomplete="off" />
    <kbd>/</kbd>
    <div id="search-results" class="search-results" hidden></div>
  </div>
</header>`;
}

function isCurrentSection(path: string, href: string): boolean {
  if (href === '/docs/guides/authentication') return path.startsWith('/docs/guides/') && path !== '/docs/guides/quickstart';
  return path === href || path.startsWith(`${href}/`);
}

function sidebar(nav: NavGroup[], path: string): string {
  const groups = nav
    .map(
      (g) => `<div class="nav-group"><div class="nav-title">${escapeHtml(g.title)}</div>${g.links
        .map(
          (l) =>
            `<a href="${l.href}"${l.href === path ? ' class="active" aria-current="page"' : ''}>${escapeHtml(l.label)}</a>`,
        )
        .join('')}</div>`,
    )
    .join('');
  return `<aside class="sidebar" aria-label="Documentation">${groups}</aside>`;
}

function toc(entries: PageOptions['toc']): string {
  const list = (entries ?? []).filter((e) => e.depth <= 3);
  if (list.length < 2) return '';
  const items = list
    .map((e) => `<a class="toc-${e.depth}" href="#${e.id}">${escapeHtml(e.text)}</a>`)
    .join('');
  return `<nav class="toc" aria-label="On this page"><div class="toc-title">On this page</div>${items}</nav>`;
}

export function head(title: string, description?: string, extra = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${escapeHtml(title)} · Gathercast Docs</title>
  ${description ? `<meta name="description" content="${escapeHtml(description)}" />` : ''}
  <link rel="icon" href="/docs/assets/favicon.svg" type="image/svg+xml" />
  <link rel="stylesheet" href="/docs/assets/site.css" />
  ${extra}
</head>`;
}

export function page(options: PageOptions): string {
  return `${head(options.title, options.description)}
<body>
${topBar(options.path)}
<div class="layout">
  ${sidebar(options.nav, options.path)}
  <main class="content" id="content">
    <article class="prose">${options.body}</article>
  </main>
  ${toc(options.toc)}
</div>
<script src="/docs/assets/site.js" defer></script>
${(options.scripts ?? []).map((src) => `<script src="${src}" defer></script>`).join('\n')}
</body>
</html>`;
}
