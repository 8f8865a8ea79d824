import type { Audience } from './faq';
import { type Hit, minCoverage } from './retrieval';

/**
 * A reply is sent back as a `model` turn of the next request, whose text is capped at 2200
 * characters, so no reply may be longer.
 */
export const maxReplyLength = 2200;
/** Extractive answers stay short enough to read in a chat bubble. */
const extractiveLength = 1200;

/**
 * Whether the best hit is good enough to answer with verbatim: it must match enough of the question,
 * and share a word with the entry's own question (a match only in the answer text is incidental).
 */
export function answerable(hits: Hit[]): boolean {
  const best = hits[0];
  return best !== undefined && best.coverage >= minCoverage && best.questionMatch;
}

/** The best entry's answer, as the FAQ writes it. */
export function extractiveReply(best: Hit): string {
  return trimTo(best.entry.answer, extractiveLength);
}

/** What the assistant says when the FAQ has no answer: it never guesses. */
export function fallbackReply(audience: Audience | undefined, docsUrl: string): string {
  const where =
    audience === 'viewer'
      ? 'The event’s host or organiser can help with questions about this event.'
      : `The API reference is at ${docsUrl}, and Gathercast support can help with anything it does not cover.`;
  return [
    'I don’t know the answer to that: it is not covered by the Gathercast FAQ, and I only answer from it.',
    where,
    'I can help with going live, phases and modalities, breakouts, speed networking (rotation), Q&A, registration, recordings, webhooks, API keys and roles.',
  ].join(' ');
}

/** Cuts text to `max` characters at the last sentence (or word) boundary that fits. */
export function trimTo(text: string, max: number): string {
  const clean = text.trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'), cut.lastIndexOf('\n'));
  if (sentenceEnd > max / 2) return cut.slice(0, sentenceEnd + 1).trim();
  const wordEnd = cut.lastIndexOf(' ');
  return `${cut.slice(0, wordEnd > max / 2 ? wordEnd : cut.length).trimEnd()}…`;
}
