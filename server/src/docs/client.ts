/**
 * The browser script of the docs pages (served as /docs/assets/site.js): search over the index,
 * copy buttons on code blocks, the menu on narrow screens, "/" to focus search. No dependencies.
 */
export const siteScript = `(() => {
  const input = document.getElementById('search-input');
  const box = document.getElementById('search-results');
  let index;
  const load = () => index || (index = fetch('/docs/search-index.json').then((r) => r.json()));
  const esc = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  // Terms are stemmed (a common ending dropped) and matched as substrings: "registrants" finds "registration".
  const stem = (w) => (w.length > 5 ? w.replace(/(ations?|ants?|ings?|ed|es|s)$/, '') : w);
  const words = (q) => q.toLowerCase().split(/[^\\p{L}\\p{N}_.\\/-]+/u).filter((w) => w.length > 1).map(stem);
  function score(entry, terms) {
    const title = entry.title.toLowerCase();
    const text = entry.text.toLowerCase();
    let total = 0;
    for (const t of terms) {
      const inTitle = title.includes(t);
      const inText = text.includes(t);
      if (!inTitle && !inText) return 0;
      total += (inTitle ? 6 : 0) + (inText ? 1 + Math.min(3, text.split(t).length - 2) * 0.3 : 0);
      if (title === t) total += 6;
    }
    return total;
  }
  function snippet(text, terms) {
    const lower = text.toLowerCase();
    const at = Math.max(0, Math.min(...terms.map((t) => { const i = lower.indexOf(t); return i < 0 ? Infinity : i; })) - 40);
    let s = esc((at > 0 ? '…' : '') + text.slice(at, at + 150) + (text.length > at + 150 ? '…' : ''));
    for (const t of terms) s = s.replace(new RegExp(t.replace(/[.*+?^\${}()|[\\]\\\\\\/]/g, '\\\\$&'), 'gi'), (m) => '<mark>' + m + '</mark>');
    return s;
  }
  let active = -1;
  async function search() {
    const q = input.value.trim();
    const terms = words(q);
    if (!terms.length) { box.hidden = true; return; }
    const entries = await load();
    const hits = entries.map((e) => ({ e, s: score(e, terms) })).filter((h) => h.s > 0).sort((a, b) => b.s - a.s).slice(0, 8);
    active = -1;
    box.innerHTML = hits.length
      ? hits.map((h) => '<a class="result" href="' + esc(h.e.url) + '"><span class="result-area">' + esc(h.e.area) + '</span><span class="result-title">' + esc(h.e.title) + '</span><span class="result-text">' + snippet(h.e.text, terms) + '</span></a>').join('')
      : '<div class="no-results">No results for “' + esc(q) + '”</div>';
    box.hidden = false;
  }
  if (input && box) {
    input.addEventListener('input', search);
    input.addEventListener('focus', () => { load(); if (input.value.trim()) search(); });
    input.addEventListener('keydown', (ev) => {
      const results = [...box.querySelectorAll('a.result')];
      if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        active = (active + (ev.key === 'ArrowDown' ? 1 : -1) + results.length) % results.length;
        results.forEach((r, i) => r.classList.toggle('selected', i === active));
      } else if (ev.key === 'Enter' && results.length) {
        window.location.href = results[Math.max(0, active)].getAttribute('href');
      } else if (ev.key === 'Escape') {
        box.hidden = true; input.blur();
      }
    });
    document.addEventListener('click', (ev) => { if (!ev.target.closest('.search')) box.hidden = true; });
    document.addEventListener('keydown', (ev) => {
      if (ev.key === '/' && document.activeElement !== input && !/input|textarea/i.test(document.activeElement.tagName)) { ev.preventDefault(); input.focus(); }
    });
  }
  for (const button of document.querySelectorAll('.code .copy')) {
    button.addEventListener('click', async () => {
      const code = button.parentElement.querySelector('code').innerText;
      try { await navigator.clipboard.writeText(code); button.textContent = 'Copied'; } catch { button.textContent = 'Select and copy'; }
      setTimeout(() => { button.textContent = 'Copy'; }, 1500);
    });
  }
  const toggle = document.querySelector('.nav-toggle');
  if (toggle) toggle.addEventListener('click', () => document.body.classList.toggle('nav-open'));
})();
`;

export const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/><circle cx="16" cy="16" r="6" fill="none" stroke="#fff" stroke-width="3"/><circle cx="16" cy="16" r="11" fill="none" stroke="#c7d2fe" stroke-width="2" stroke-dasharray="4 3"/></svg>`;
