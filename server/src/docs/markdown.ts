import path from 'node:path';
import hljs from 'highlight.js';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../lib/html';

/** One heading of a rendered page: the "On this page" list and the search index use them. */
export interface Heading {
  depth: number;
  id: string;
  text: string;
}

/** A section of a page as plain text (heading + the text under it), for search. */
export interface TextSection {
  id: string;
  heading: string;
  text: string;
}

export interface RenderedMarkdown {
  title: string;
  html: string;
  headings: Heading[];
  sections: TextSection[];
}

/** GitHub-style heading ids: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function slugger() {
  const seen = new Map<string, number>();
  return (text: string) => {
    const base =
      text
        .toLowerCase()
        .replace(/<[^>]*>/g, '')
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .trim()
        .replace(/\s/g, '-') || 'section';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

/**
 * Renders one Markdown file. `resolveLink` maps a repository path (the link resolved against the
 * file's own path) to a site URL, or undefined when the site does not serve it (the link text stays,
 * unlinked, so no page of the site links nowhere).
 */
export function renderMarkdown(
  markdown: string,
  file: string,
  resolveLink: (repoPath: string) => string | undefined,
): RenderedMarkdown {
  const slug = slugger();
  const headings: Heading[] = [];
  let title = '';
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const text = plain(inner);
        if (token.depth === 1 && !title) {
          title = text;
          return `<h1>${inner}</h1>\n`;
        }
        const id = slug(text);
        headings.push({ depth: token.depth, id, text });
        return `<h${token.depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true">#</a>${inner}</h${token.depth}>\n`;
      },
      code(token: Tokens.Code) {
        const lang = (token.lang ?? '').split(/\s/)[0] ?? '';
        const known = lang && hljs.getLanguage(lang) ? lang : undefined;
        const body = known ? hljs.highlight(token.text, { language: known }).value : escapeHtml(token.text);
        const label = known ? `<span class="code-lang">${escapeHtml(lang)}</span>` : '';
        return `<div class="code">${label}<button class="copy" type="button" aria-label="Copy">Copy</button><pre><code class="hljs">${body}</code></pre></div>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = siteHref(token.href, file, resolveLink);
        if (href === undefined) return `<span class="repo-ref">${inner}</span>`;
        const external = /^https?:\/\//.test(href);
        return `<a href="${escapeHtml(href)}"${external ? ' rel="noopener" class="external"' : ''}>${inner}</a>`;
      },
      table(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Table) {
        const cell = (c: Tokens.TableCell, tag: 'th' | 'td') =>
          `<${tag}${c.align ? ` style="text-align:${c.align}"` : ''}>${this.parser.parseInline(c.tokens)}</${tag}>`;
        const head = `<tr>${token.header.map((c) => cell(c, 'th')).join('')}</tr>`;
        const rows = token.rows.map((r) => `<tr>${r.map((c) => cell(c, 'td')).join('')}</tr>`).join('\n');
        return `<div class="table-wrap"><table><thead>${head}</thead><tbody>${rows}</tbody></table></div>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false }) as string;
  return { title: title || file, html, headings, sections: sectionsOf(html) };
}

/** Where a Markdown link goes on the site: anchors and absolute URLs stay, repository paths are mapped. */
function siteHref(href: string, file: string, resolveLink: (repoPath: string) => string | undefined) {
  if (/^(https?:|mailto:|#|\/)/.test(href)) return href;
  const [target = '', anchor] = href.split('#');
  const repoPath = path.posix.normalize(path.posix.join(path.posix.dirname(file), target)).replace(/\/$/, '');
  const url = resolveLink(repoPath);
  if (url === undefined) return undefined;
  return anchor ? `${url}#${anchor}` : url;
}

/** Text as a reader sees it: no tags, no code-block UI (language label, Copy button), entities decoded. */
const plain = (html: string) =>
  html
    .replace(/<span class="code-lang">[^<]*<\/span>|<button[^>]*>[^<]*<\/button>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();

/** Splits rendered HTML at its h2/h3 headings into plain-text sections (the text before the first is the intro). */
function sectionsOf(html: string): TextSection[] {
  const sections: TextSection[] = [];
  const parts = html.split(/(?=<h[23] id=")/);
  for (const part of parts) {
    const m = /^<h[23] id="([^"]+)">(.*?)<\/h[23]>/s.exec(part);
    const text = plain(part.replace(/<a class="anchor"[^>]*>#<\/a>/g, '').replace(/<h1>.*?<\/h1>/s, ''));
    if (m) sections.push({ id: m[1] ?? '', heading: plain((m[2] ?? '').replace(/<a class="anchor"[^>]*>#<\/a>/, '')), text });
    else if (text) sections.push({ id: '', heading: '', text });
  }
  return sections;
}
