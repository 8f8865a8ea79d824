import { readFileSync } from 'node:fs';

/** Set by the build (tsup `define`) to the text of docs/faq.md, so `server/dist` needs no repository. */
declare const __GATHERCAST_FAQ__: string | undefined;

export type Audience = 'host' | 'viewer';
export type Surface = 'room' | 'dashboard';
export type Stage = 'prelive' | 'open' | 'live' | 'ended';

export interface FaqEntry {
  /** The question, as the FAQ heading writes it. */
  question: string;
  /** The answer, hard line wraps joined; paragraphs and list items kept on their own lines. */
  answer: string;
  /** Who and where the entry is for (an HTML comment under the heading); empty means everyone, everywhere. */
  audience: Audience[];
  surface: Surface[];
  stage: Stage[];
}

/** docs/faq.md as built into the bundle, or read from the repository when running from source (tests, tsx). */
export function faqMarkdown(): string {
  if (typeof __GATHERCAST_FAQ__ === 'string') return __GATHERCAST_FAQ__;
  return readFileSync(new URL('../../../docs/faq.md', import.meta.url), 'utf8');
}

const tagLine = /^<!--\s*(.*?)\s*-->$/;

/**
 * Every `## Question` heading starts an entry; its answer runs to the next heading. An optional
 * `<!-- audience: viewer; surface: room; stage: live, open -->` line right under the heading tags it.
 */
export function parseFaq(markdown: string): FaqEntry[] {
  const entries: FaqEntry[] = [];
  let current: { question: string; lines: string[]; tags: Record<string, string[]> } | undefined;
  const finish = () => {
    if (!current) return;
    const answer = unwrap(current.lines);
    if (answer) {
      entries.push({
        question: current.question,
        answer,
        audience: (current.tags.audience ?? []) as Audience[],
        surface: (current.tags.surface ?? []) as Surface[],
        stage: (current.tags.stage ?? []) as Stage[],
      });
    }
    current = undefined;
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (/^#{1,2}\s/.test(line)) {
      finish();
      if (line.startsWith('## ')) current = { question: line.slice(3).trim(), lines: [], tags: {} };
      continue;
    }
    if (!current) continue;
    const tag = tagLine.exec(line.trim());
    if (tag && current.lines.every((l) => l.trim() === '')) {
      current.tags = parseTags(tag[1] ?? '');
      continue;
    }
    current.lines.push(line);
  }
  finish();
  return entries;
}

function parseTags(text: string): Record<string, string[]> {
  const tags: Record<string, string[]> = {};
  for (const part of text.split(';')) {
    const [key, values] = part.split(':');
    if (!key || !values) continue;
    tags[key.trim().toLowerCase()] = values
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
  }
  return tags;
}

/** Joins hard-wrapped lines; blank lines stay paragraph breaks and list items keep their own line. */
function unwrap(lines: string[]): string {
  const out: string[] = [];
  let paragraph = '';
  const flush = () => {
    if (paragraph) out.push(paragraph);
    paragraph = '';
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) {
      flush();
      if (out.length && out[out.length - 1] !== '') out.push('');
      continue;
    }
    if (/^(?:[-*]|\d+\.)\s/.test(line)) {
      flush();
      paragraph = line;
      continue;
    }
    paragraph = paragraph ? `${paragraph} ${line}` : line;
  }
  flush();
  while (out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
