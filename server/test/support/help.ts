import { randomBytes } from 'node:crypto';
import { type FaqEntry, faqMarkdown, parseFaq } from '../../src/help/faq';

/** The FAQ entries the server answers from (docs/faq.md). */
export const faq: FaqEntry[] = parseFaq(faqMarkdown());

/** The entry whose question is exactly `question`; fails loudly when the FAQ was reworded. */
export function faqEntry(question: string): FaqEntry {
  const entry = faq.find((e) => e.question === question);
  if (!entry) throw new Error(`docs/faq.md has no entry "${question}"`);
  return entry;
}

/** With TRUST_PROXY each caller speaks from its own client address, so rate limits stay per test. */
export const clientAddress = () =>
  `2001:db8:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

/** POST /v1/help/chat as a raw request (bad bodies included) from the given client address. */
export async function askRaw(baseUrl: string, body: unknown, address = clientAddress()) {
  const res = await fetch(`${baseUrl}/v1/help/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The reply to one user question. */
export async function replyTo(baseUrl: string, text: string, context: Record<string, unknown> = {}) {
  const res = await askRaw(baseUrl, { messages: [{ role: 'user', text }], ...context });
  if (res.status !== 200) throw new Error(`help chat answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.reply as string;
}
