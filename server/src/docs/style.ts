/** The docs site's stylesheet (served as /docs/assets/site.css): system fonts, no external resources. */
export const siteStyle = `
:root {
  --accent: #4f46e5; --accent-soft: #eef2ff; --accent-dark: #3730a3;
  --text: #0f172a; --muted: #64748b; --border: #e2e8f0; --soft: #f8fafc;
  --code-bg: #0f172a; --inline-code: #f1f5f9;
  --font: Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  --topbar: 60px;
}
* { box-sizing: border-box; }
html { scroll-padding-top: calc(var(--topbar) + 16px); }
body { margin: 0; font-family: var(--font); color: var(--text); background: #fff; font-size: 16px; line-height: 1.65; -webkit-font-smoothing: antialiased; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }

.topbar { position: sticky; top: 0; z-index: 50; height: var(--topbar); display: flex; align-items: center; gap: 28px;
  padding: 0 24px; background: #fff; border-bottom: 1px solid var(--border); }
.brand { display: flex; align-items: center; gap: 10px; font-weight: 700; font-size: 18px; color: var(--text); letter-spacing: -.01em; white-space: nowrap; }
.brand:hover { text-decoration: none; }
.brand-sub { font-weight: 500; color: var(--muted); }
.logo { width: 28px; height: 28px; border-radius: 8px; background: url(/docs/assets/favicon.svg) center/cover; }
.toplinks { display: flex; gap: 4px; }
.toplinks a { color: #334155; font-size: 14.5px; font-weight: 500; padding: 6px 12px; border-radius: 8px; }
.toplinks a:hover { background: var(--soft); text-decoration: none; }
.toplinks a.current { color: var(--accent); background: var(--accent-soft); }
.nav-toggle { display: none; border: 0; background: none; font-size: 22px; cursor: pointer; color: var(--text); }
.search { position: relative; margin-left: auto; width: 320px; }
.search input { width: 100%; height: 38px; padding: 0 36px 0 14px; border: 1px solid var(--border); border-radius: 10px;
  background: var(--soft); font: inherit; font-size: 14.5px; color: var(--text); outline: none; }
.search input:focus { border-color: var(--accent); background: #fff; box-shadow: 0 0 0 3px var(--accent-soft); }
.search kbd { position: absolute; right: 10px; top: 9px; font: 12px var(--mono); color: var(--muted); border: 1px solid var(--border); border-radius: 5px; padding: 0 6px; background: #fff; }
.search-results { position: absolute; right: 0; top: 46px; width: 480px; max-height: 70vh; overflow: auto; background: #fff;
  border: 1px solid var(--border); border-radius: 12px; box-shadow: 0 20px 40px -12px rgba(15,23,42,.25); padding: 6px; }
.result { display: block; padding: 10px 12px; border-radius: 8px; color: var(--text); }
.result:hover, .result.selected { background: var(--accent-soft); text-decoration: none; }
.result-area { display: block; font-size: 11.5px; font-weight: 600; text-transform: uppercase; letter-spacing: .05em; color: var(--accent); }
.result-title { display: block; font-weight: 600; font-size: 14.5px; }
.result-text { display: block; font-size: 13px; color: var(--muted); line-height: 1.45; }
.result mark { background: #fef08a; color: inherit; border-radius: 2px; }
.no-results { padding: 12px; color: var(--muted); font-size: 14px; }

.layout { display: grid; grid-template-columns: 260px minmax(0, 1fr) 220px; max-width: 1440px; margin: 0 auto; }
.sidebar { position: sticky; top: var(--topbar); height: calc(100vh - var(--topbar)); overflow-y: auto; padding: 24px 16px 40px 24px; border-right: 1px solid var(--border); }
.nav-group { margin-bottom: 22px; }
.nav-title { font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 6px 10px; }
.sidebar a { display: block; padding: 5px 10px; border-radius: 7px; color: #334155; font-size: 14.5px; }
.sidebar a:hover { background: var(--soft); text-decoration: none; }
.sidebar a.active { background: var(--accent-soft); color: var(--accent-dark); font-weight: 600; }
.content { min-width: 0; padding: 40px 56px 96px; }
.toc { position: sticky; top: var(--topbar); align-self: start; max-height: calc(100vh - var(--topbar)); overflow-y: auto; padding: 40px 20px 40px 0; font-size: 13.5px; }
.toc-title { font-weight: 700; font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin-bottom: 8px; }
.toc a { display: block; color: var(--muted); padding: 3px 0; line-height: 1.4; }
.toc a:hover { color: var(--accent); text-decoration: none; }
.toc .toc-3 { padding-left: 12px; }

.prose { max-width: 820px; }
.prose h1 { font-size: 36px; line-height: 1.2; letter-spacing: -.02em; margin: 0 0 16px; }
.prose h2 { font-size: 24px; letter-spacing: -.01em; margin: 48px 0 12px; padding-top: 8px; border-top: 1px solid var(--border); padding-top: 28px; }
.prose h3 { font-size: 18.5px; margin: 32px 0 8px; }
.prose h4 { font-size: 16px; margin: 24px 0 8px; }
.prose h2, .prose h3, .prose h4 { position: relative; }
.anchor { position: absolute; left: -22px; color: #cbd5e1; opacity: 0; font-weight: 400; }
h2:hover .anchor, h3:hover .anchor, h4:hover .anchor { opacity: 1; text-decoration: none; }
.prose p, .prose ul, .prose ol { margin: 0 0 16px; }
.prose li { margin: 4px 0; }
.prose li > ul, .prose li > ol { margin: 4px 0; }
.prose code { font-family: var(--mono); font-size: .86em; background: var(--inline-code); padding: .15em .4em; border-radius: 5px; color: #1e293b; }
.prose a code { color: var(--accent); }
.prose blockquote { margin: 0 0 16px; padding: 12px 16px; border-left: 4px solid var(--accent); background: var(--accent-soft); border-radius: 0 8px 8px 0; }
.prose blockquote p:last-child { margin: 0; }
.prose hr { border: 0; border-top: 1px solid var(--border); margin: 32px 0; }
.lead { font-size: 19px; color: #334155; }
.eyebrow { margin: 0 0 4px; font-size: 13px; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: var(--accent); }
.muted { color: var(--muted); font-size: .92em; }
.repo-ref { border-bottom: 1px dotted var(--muted); }
a.external::after { content: "↗"; font-size: .8em; margin-left: 2px; }

.table-wrap { overflow-x: auto; margin: 0 0 20px; border: 1px solid var(--border); border-radius: 10px; }
table { border-collapse: collapse; width: 100%; font-size: 14.5px; }
th, td { text-align: left; vertical-align: top; padding: 9px 14px; border-bottom: 1px solid var(--border); }
th { background: var(--soft); font-weight: 600; font-size: 13.5px; color: #334155; }
tr:last-child td { border-bottom: 0; }

.code { position: relative; margin: 0 0 20px; background: var(--code-bg); border-radius: 10px; }
.code pre { margin: 0; padding: 16px 18px; overflow-x: auto; }
.code code, .code code.hljs { font-family: var(--mono); font-size: 13.5px; line-height: 1.6; color: #e2e8f0; background: none; padding: 0; }
.code-lang { position: absolute; top: 6px; right: 64px; font: 11px var(--mono); color: #64748b; text-transform: uppercase; }
.copy { position: absolute; top: 6px; right: 8px; font: 12px var(--font); color: #cbd5e1; background: #1e293b; border: 1px solid #334155; border-radius: 6px; padding: 2px 8px; cursor: pointer; opacity: 0; transition: opacity .15s; }
.code:hover .copy, .copy:focus { opacity: 1; }
.hljs-comment, .hljs-quote { color: #64748b; font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-meta .hljs-keyword { color: #c4b5fd; }
.hljs-string, .hljs-attr + .hljs-string, .hljs-regexp, .hljs-addition { color: #86efac; }
.hljs-number, .hljs-literal, .hljs-symbol { color: #fdba74; }
.hljs-attr, .hljs-attribute, .hljs-property, .hljs-variable, .hljs-template-variable { color: #7dd3fc; }
.hljs-title, .hljs-title.function_, .hljs-section { color: #f9a8d4; }
.hljs-type, .hljs-class .hljs-title, .hljs-params { color: #e2e8f0; }
.hljs-meta, .hljs-deletion { color: #fca5a5; }

.status { display: inline-block; font: 600 12.5px var(--mono); padding: 1px 8px; border-radius: 999px; }
.status-4xx { background: #fef3c7; color: #92400e; }
.status-5xx { background: #fee2e2; color: #991b1b; }
.chip { display: inline-block; margin: 0 4px 6px 0; }
.webhook h2 code { font-size: .9em; }

.hero { padding: 8px 0 8px; }
.hero h1 { font-size: 44px; letter-spacing: -.03em; margin-bottom: 12px; }
.hero .lead { max-width: 680px; }
.cta { display: flex; gap: 12px; margin: 24px 0 8px; flex-wrap: wrap; }
.button { display: inline-block; padding: 10px 18px; border-radius: 10px; font-weight: 600; font-size: 15px; border: 1px solid var(--border); color: var(--text); background: #fff; }
.button:hover { text-decoration: none; border-color: #cbd5e1; background: var(--soft); }
.button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
.button.primary:hover { background: var(--accent-dark); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 16px; margin: 28px 0 36px; }
.card { display: block; padding: 18px 20px; border: 1px solid var(--border); border-radius: 12px; color: var(--text); transition: border-color .15s, box-shadow .15s; }
.card:hover { text-decoration: none; border-color: #c7d2fe; box-shadow: 0 8px 24px -12px rgba(79,70,229,.35); }
.card-title { font-weight: 650; font-size: 16px; margin-bottom: 4px; }
.card-text { color: var(--muted); font-size: 14px; line-height: 1.5; }
.card-icon { display: inline-flex; align-items: center; justify-content: center; min-width: 34px; height: 34px; padding: 0 7px; border-radius: 9px; color: #fff; font: 700 11.5px var(--mono); letter-spacing: .02em; margin-bottom: 12px; }

.reference-page .redoc-container { min-height: calc(100vh - var(--topbar) - 40px); }
.reference-parts { position: sticky; top: var(--topbar); z-index: 45; height: 40px; display: flex; align-items: center; gap: 20px; padding: 0 24px; overflow-x: auto; white-space: nowrap; background: var(--soft); border-bottom: 1px solid var(--border); font-size: 14px; }
.reference-parts a { color: var(--muted); }
.reference-parts a.current { color: var(--accent); font-weight: 600; }
.reference-group { margin-top: 32px; }
.group-summary { color: var(--muted); }
.group-summary .button { margin-left: 8px; padding: 4px 12px; font-size: 14px; }
.operations { list-style: none; padding: 0; margin: 8px 0 20px; }
.operations li { margin: 2px 0; }
.operations code { font-size: 13px; }
.method { display: inline-block; min-width: 52px; font: 700 11.5px var(--mono); text-transform: uppercase; color: #fff; background: #64748b; border-radius: 5px; padding: 1px 6px; text-align: center; }
.method-get { background: #059669; } .method-post { background: #4f46e5; } .method-patch, .method-put { background: #d97706; } .method-delete { background: #dc2626; }
.loading { padding: 40px; color: var(--muted); }

@media (max-width: 1200px) { .layout { grid-template-columns: 240px minmax(0, 1fr); } .toc { display: none; } }
@media (max-width: 860px) {
  .layout { grid-template-columns: 1fr; }
  .sidebar { display: none; position: fixed; inset: var(--topbar) 0 0 0; background: #fff; z-index: 40; height: auto; }
  .nav-open .sidebar { display: block; }
  .nav-toggle { display: block; }
  .toplinks { display: none; }
  .search { width: auto; flex: 1; }
  .search-results { width: calc(100vw - 32px); }
  .content { padding: 28px 20px 64px; }
}
`;
