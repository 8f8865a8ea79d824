/** The docs home page: what Gathercast is, where to start, and the way into each part of the docs. */
const cards: { href: string; icon: string; color: string; title: string; text: string }[] = [
  { href: '/docs/guides/quickstart', icon: 'QS', color: '#4f46e5', title: 'Quick start', text: 'From nothing to a verified webhook in ten minutes, with curl and with the SDK.' },
  { href: '/docs/reference', icon: 'API', color: '#0ea5e9', title: 'API reference', text: 'Every operation: parameters, bodies, answers, errors and examples.' },
  { href: '/docs/guides/authentication', icon: 'KEY', color: '#f59e0b', title: 'Authentication', text: 'API keys, sessions, workspaces, and who may call what.' },
  { href: '/docs/guides/events', icon: 'EV', color: '#10b981', title: 'Events and phases', text: 'The lifecycle, the agenda, roles, registration and safe retries.' },
  { href: '/docs/webhooks', icon: 'WH', color: '#ec4899', title: 'Webhook catalog', text: 'All event types with their fields and example bodies.' },
  { href: '/docs/guides/live-gateway', icon: 'WS', color: '#8b5cf6', title: 'Live gateway', text: 'The WebSocket of a live event: presence, Q&A, lobby, tables.' },
  { href: '/docs/guides/sdk', icon: 'SDK', color: '#14b8a6', title: 'TypeScript SDK', text: 'A typed client for every route, with typed errors and the live connection.' },
  { href: '/docs/errors', icon: 'ERR', color: '#ef4444', title: 'Errors', text: 'Every problem code, what it means, and what to do about it.' },
];

export function homeBody(): string {
  const grid = cards
    .map(
      (c) =>
        `<a class="card" href="${c.href}"><span class="card-icon" style="background:${c.color}" aria-hidden="true">${c.icon}</span><div class="card-title">${c.title}</div><div class="card-text">${c.text}</div></a>`,
    )
    .join('');
  return `<div class="hero">
<p class="eyebrow">Gathercast API</p>
<h1>Build live online events into your product</h1>
<p class="lead">Schedule broadcasts, meetings, breakouts and speed-networking over one JSON REST API; let people in
with tokens for the live gateway; hear about everything that happens through signed webhooks.</p>
<div class="cta"><a class="button primary" href="/docs/guides/quickstart">Start the quick start</a><a class="button" href="/docs/reference">Browse the API reference</a></div>
</div>
<div class="cards">${grid}</div>
<h2 id="first-request">Your first request</h2>
<p>Sign up (this creates your account and first workspace), then create an API key: the key made with the workspace
is never shown, so every integration starts with one of its own.</p>
<div class="code"><span class="code-lang">sh</span><pre><code>curl -s -X POST http://localhost:3000/v1/accounts/signup \\
  -H 'content-type: application/json' \\
  -d '{"email":"you@example.com","password":"correct horse battery","name":"You"}'</code></pre></div>
<p>The <a href="/docs/guides/quickstart">quick start</a> continues from here. Every answer is JSON; every error is
<code>application/problem+json</code> with a stable <a href="/docs/errors"><code>code</code></a>.</p>`;
}
