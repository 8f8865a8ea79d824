import { englishStopwords } from '../lib/stopwords';
import type { Segment, SpeakerStat } from './rows';

/**
 * Deterministic text analysis shared by the extractive engine and the statistics: sentences,
 * keywords, sentence scores and per-speaker words / turns / talk time. No randomness, no clock:
 * the same segments always give the same result.
 */

/** The shared English function words, plus what transcribed speech has: fillers and contractions. */
const stopwords = new Set([
  ...englishStopwords,
  ...`against aren't couldn't didn't hadn't hasn't haven't he'd he'll he's here's herself himself how's
i'd i'll let's like mustn't ought ourselves right say said shan't she'd she'll she's shouldn't
that's themselves they'd they'll they're they've think wasn't we'd we'll we're we've well weren't
what's when's where's who's why's won't wouldn't yeah yes you'd you'll you're you've yourselves um
uh going gonna kind lot maybe much one two many even back made see`.split(/\s+/),
]);

export interface Sentence {
  text: string;
  /** Position in the transcript (segment order, then sentence order). */
  index: number;
  speakerKey: string;
  tokens: string[];
}

export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

export const tokensOf = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [])
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w.length >= 3 && !stopwords.has(w) && !/^\d+$/.test(w));

/** The identity a segment is counted under: its userId, else its speaker name, else "unknown". */
export const speakerKeyOf = (s: Segment) =>
  s.userId ? `user:${s.userId}` : s.speakerName ? `name:${s.speakerName}` : 'unknown';

/** Segments in spoken order (by start time; ties keep the given order). */
export const inSpokenOrder = (segments: Segment[]) =>
  segments
    .map((s, i) => ({ s, i }))
    .sort((a, b) => a.s.startSeconds - b.s.startSeconds || a.i - b.i)
    .map((x) => x.s);

export function sentencesOf(segments: Segment[]): Sentence[] {
  const out: Sentence[] = [];
  for (const seg of inSpokenOrder(segments)) {
    const parts = seg.text
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s+/)
      .map((p) => p.trim())
      .filter(Boolean);
    for (const text of parts)
      out.push({ text, index: out.length, speakerKey: speakerKeyOf(seg), tokens: tokensOf(text) });
  }
  return out;
}

export function keywordFrequencies(sentences: Sentence[]): Map<string, number> {
  const freq = new Map<string, number>();
  for (const s of sentences) for (const t of s.tokens) freq.set(t, (freq.get(t) ?? 0) + 1);
  return freq;
}

/** Keywords by frequency (ties alphabetical), only those said at least `min` times. */
export function topKeywords(freq: Map<string, number>, n: number, min = 2): string[] {
  return [...freq.entries()]
    .filter(([, c]) => c >= min)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([w]) => w);
}

/** Sum of the keyword frequencies of a sentence's distinct keywords, damped by its length. */
export function scoreOf(s: Sentence, freq: Map<string, number>): number {
  if (s.tokens.length === 0) return 0;
  let sum = 0;
  for (const t of new Set(s.tokens)) sum += freq.get(t) ?? 0;
  return sum / Math.sqrt(s.tokens.length + 2);
}

/** The `n` best-scoring sentences (ties: earlier first), returned in transcript order. */
export function keySentences(sentences: Sentence[], freq: Map<string, number>, n: number): Sentence[] {
  const candidates = sentences.filter((s) => wordCount(s.text) >= 4);
  const pool = candidates.length ? candidates : sentences;
  const seen = new Set<string>();
  return pool
    .map((s) => ({ s, score: scoreOf(s, freq) }))
    .sort((a, b) => b.score - a.score || a.s.index - b.s.index)
    .filter(({ s }) => {
      const k = s.text.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .slice(0, n)
    .map(({ s }) => s)
    .sort((a, b) => a.index - b.index);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Per-speaker words, turns and talk time. A turn is a run of consecutive segments (in spoken order)
 * by the same speaker; talk time is the sum of the segments' durations. Most words first.
 */
export function speakerStats(segments: Segment[]): SpeakerStat[] {
  const stats = new Map<string, SpeakerStat>();
  let previous: string | null = null;
  for (const seg of inSpokenOrder(segments)) {
    const key = speakerKeyOf(seg);
    let stat = stats.get(key);
    if (!stat) {
      stat = {
        name: seg.speakerName ?? null,
        userId: seg.userId ?? null,
        words: 0,
        turns: 0,
        talkSeconds: 0,
      };
      stats.set(key, stat);
    }
    if (seg.speakerName) stat.name = seg.speakerName;
    stat.words += wordCount(seg.text);
    stat.talkSeconds += Math.max(0, seg.endSeconds - seg.startSeconds);
    if (key !== previous) stat.turns += 1;
    previous = key;
  }
  return [...stats.values()]
    .map((s) => ({ ...s, talkSeconds: round2(s.talkSeconds) }))
    .sort(
      (a, b) =>
        b.words - a.words || b.talkSeconds - a.talkSeconds || (a.name ?? '').localeCompare(b.name ?? ''),
    );
}

export const isQuestion = (s: Sentence) => s.text.endsWith('?');

const ideaCue =
  /\b(we could|we should|we might|what if|let's|lets|how about|maybe we|i propose|i suggest|idea)\b/i;
export const isIdea = (s: Sentence) => !isQuestion(s) && ideaCue.test(s.text);
