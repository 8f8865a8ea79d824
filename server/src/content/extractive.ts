import type { Segment } from './rows';
import {
  isIdea,
  isQuestion,
  keySentences,
  keywordFrequencies,
  type Sentence,
  scoreOf,
  sentencesOf,
  tokensOf,
  topKeywords,
} from './text-analysis';

/**
 * The built-in extractive engine (used when no LLM is configured, and whenever the LLM fails):
 * it picks sentences that were actually said, never writes new ones. Deterministic.
 */

/** Summary text: the key sentences (about one in five, 1 to 5), in the order they were said. */
export function extractiveSummaryText(segments: Segment[]): string {
  const sentences = sentencesOf(segments);
  if (sentences.length === 0) return '';
  const freq = keywordFrequencies(sentences);
  const n = Math.min(5, Math.max(1, Math.ceil(sentences.length / 5)));
  return keySentences(sentences, freq, n)
    .map((s) => s.text)
    .join(' ');
}

export interface TableDigest {
  tldr: string;
  themes: { title: string; summary: string }[];
  ideas: string[];
  questions: string[];
}

export interface PromptCoverage {
  ordinal: number;
  question: string;
  discussed: boolean;
  summary: string;
}

const unique = (items: string[], n: number) => [...new Set(items)].slice(0, n);
const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/**
 * A table's digest: tldr = the two key sentences; themes = the three most repeated keywords (said at
 * least twice), each with its best sentence; ideas = proposals ("we could", "what if", "let's", …);
 * questions = sentences ending in "?". At most five ideas and five questions.
 */
export function extractiveTableDigest(segments: Segment[]): TableDigest {
  const sentences = sentencesOf(segments);
  const freq = keywordFrequencies(sentences);
  const best = (keyword: string): Sentence | undefined =>
    sentences
      .filter((s) => s.tokens.includes(keyword))
      .sort((a, b) => scoreOf(b, freq) - scoreOf(a, freq) || a.index - b.index)[0];
  return {
    tldr: keySentences(sentences, freq, 2)
      .map((s) => s.text)
      .join(' '),
    themes: topKeywords(freq, 3).map((k) => ({ title: capitalize(k), summary: best(k)?.text ?? '' })),
    ideas: unique(
      sentences.filter(isIdea).map((s) => s.text),
      5,
    ),
    questions: unique(
      sentences.filter(isQuestion).map((s) => s.text),
      5,
    ),
  };
}

/**
 * Which discussion prompts the table talked about: a prompt is discussed when a sentence shares at
 * least half of the prompt's keywords (at least one); its summary is the best such sentence.
 */
export function promptCoverage(segments: Segment[], prompts: string[]): PromptCoverage[] {
  const sentences = sentencesOf(segments);
  const freq = keywordFrequencies(sentences);
  return prompts.map((question, i) => {
    const keys = [...new Set(tokensOf(question))];
    const need = Math.max(1, Math.ceil(keys.length / 2));
    const matches = keys.length
      ? sentences
          .map((s) => ({ s, overlap: keys.filter((k) => s.tokens.includes(k)).length }))
          .filter((m) => m.overlap >= need)
          .sort(
            (a, b) =>
              b.overlap - a.overlap || scoreOf(b.s, freq) - scoreOf(a.s, freq) || a.s.index - b.s.index,
          )
      : [];
    return { ordinal: i + 1, question, discussed: matches.length > 0, summary: matches[0]?.s.text ?? '' };
  });
}
