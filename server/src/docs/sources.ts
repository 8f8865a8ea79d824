import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The Markdown the docs site renders: the guides in docs/*.md and the two package READMEs. The build
 * (tsup `define`) embeds their text, so `server/dist` serves the site without the repository; from
 * source (tests, tsx) they are read from the checkout.
 */
declare const __GATHERCAST_DOCS__: Record<string, string> | undefined;

export interface GuideSource {
  /** URL segment: /docs/guides/<slug>. */
  slug: string;
  /** Path from the repository root, e.g. `docs/webhooks.md`: relative links are resolved against it. */
  file: string;
  /** Sidebar group. */
  group: string;
  /** Sidebar label; the page title is the Markdown's first heading. */
  label: string;
  markdown: string;
}

/** Sidebar order. Any other docs/*.md is appended to "Guides", so a new guide is never left out. */
const known: Omit<GuideSource, 'markdown'>[] = [
  { slug: 'quickstart', file: 'docs/quickstart.md', group: 'Get started', label: 'Quick start' },
  { slug: 'authentication', file: 'docs/authentication.md', group: 'Get started', label: 'Authentication' },
  { slug: 'limits', file: 'docs/limits.md', group: 'Get started', label: 'Limits and scopes' },
  { slug: 'events', file: 'docs/events.md', group: 'Guides', label: 'Events and phases' },
  { slug: 'webinar', file: 'docs/webinar.md', group: 'Guides', label: 'Run a webinar end to end' },
  { slug: 'webhooks', file: 'docs/webhooks.md', group: 'Guides', label: 'Webhooks' },
  { slug: 'broadcasts', file: 'docs/broadcasts.md', group: 'Guides', label: 'Broadcasts' },
  { slug: 'live', file: 'docs/live.md', group: 'Guides', label: 'Live access' },
  { slug: 'live-gateway', file: 'docs/live-gateway.md', group: 'Guides', label: 'Live gateway' },
  { slug: 'embed', file: 'docs/embed.md', group: 'Guides', label: 'Embed in your product' },
  { slug: 'audience-records', file: 'docs/audience-records.md', group: 'Guides', label: 'Audience records' },
  { slug: 'content', file: 'docs/content.md', group: 'Guides', label: 'Post-event content' },
  { slug: 'help-chat', file: 'docs/help-chat.md', group: 'Guides', label: 'Help chat' },
  { slug: 'faq', file: 'docs/faq.md', group: 'Guides', label: 'FAQ' },
  { slug: 'sdk', file: 'sdk/README.md', group: 'Libraries', label: 'TypeScript SDK' },
  {
    slug: 'webhook-verifier',
    file: 'webhook-verifier/README.md',
    group: 'Libraries',
    label: 'Webhook verifier',
  },
  { slug: 'deploy', file: 'docs/deploy.md', group: 'Operate', label: 'Deploying' },
  { slug: 'limits', file: 'docs/limits.md', group: 'Operate', label: 'Limits and retention' },
  { slug: 'architecture', file: 'docs/architecture.md', group: 'Contribute', label: 'Architecture' },
];

/** Every Markdown file the site renders, keyed by path from the repository root. */
export function docsFiles(): Record<string, string> {
  if (typeof __GATHERCAST_DOCS__ === 'object') return __GATHERCAST_DOCS__;
  return readDocsFiles(fileURLToPath(new URL('../../../', import.meta.url)));
}

/** Reads docs/*.md and the READMEs the site shows from a checkout (also what the build embeds). */
export function readDocsFiles(repoRoot: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(`${repoRoot}/docs`).sort()) {
    if (name.endsWith('.md')) files[`docs/${name}`] = readFileSync(`${repoRoot}/docs/${name}`, 'utf8');
  }
  for (const readme of ['sdk/README.md', 'webhook-verifier/README.md']) {
    if (existsSync(`${repoRoot}/${readme}`)) files[readme] = readFileSync(`${repoRoot}/${readme}`, 'utf8');
  }
  return files;
}

export function guideSources(files: Record<string, string> = docsFiles()): GuideSource[] {
  const guides: GuideSource[] = [];
  const listed = new Set(known.map((k) => k.file));
  for (const k of known) {
    const markdown = files[k.file];
    if (markdown !== undefined) guides.push({ ...k, markdown });
  }
  for (const [file, markdown] of Object.entries(files)) {
    if (listed.has(file) || !file.startsWith('docs/')) continue;
    const slug = file.slice('docs/'.length, -'.md'.length);
    const label = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? slug;
    guides.push({ slug, file, group: 'Guides', label, markdown });
  }
  return guides;
}
