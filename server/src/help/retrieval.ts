import type { Audience, FaqEntry, Stage, Surface } from './faq';
import { termGroups, terms } from './text';

/** BM25 constants (the usual ones). */
const k1 = 1.2;
const b = 0.75;
/** The question heading is the best summary of an entry: its terms count this many times. */
const questionWeight = 3;
/** Up to this share is added to the score of an entry whose question matches the asker's words closely. */
const questionBonus = 1;
/** Weights of the context next to the latest user turn (weight 1). */
const earlierTurnWeight = 0.35;
const eventTypeWeight = 0.2;
/**
 * Share of the latest turn's information (idf mass) an entry must match to be an answer.
 * Below it the question is about something the FAQ does not cover.
 */
export const minCoverage = 0.5;

export interface SearchContext {
  audience?: Audience;
  surface?: Surface;
  stage?: Stage;
  eventType?: string;
  /** User turns before the latest one, oldest first: they help follow-ups such as "and for viewers?". */
  earlierTurns?: string[];
}

export interface Hit {
  entry: FaqEntry;
  score: number;
  /** Share (0..1) of the latest turn's idf mass that the entry matches. */
  coverage: number;
  /** A word of the latest turn appears in the entry's question, not only somewhere in its answer. */
  questionMatch: boolean;
}

interface IndexedEntry {
  entry: FaqEntry;
  tf: Map<string, number>;
  questionTerms: Set<string>;
  length: number;
}

interface QueryGroup {
  terms: string[];
  weight: number;
  /** Part of the latest user turn (counts for coverage). */
  main: boolean;
}

/** A BM25 index over the FAQ's entries (question and answer), built once at startup. */
export class FaqIndex {
  private readonly docs: IndexedEntry[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(readonly entries: FaqEntry[]) {
    this.docs = entries.map((entry) => {
      const questionTerms = terms(entry.question);
      const tokens = [...Array(questionWeight).fill(questionTerms).flat(), ...terms(entry.answer)];
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return { entry, tf, questionTerms: new Set(questionTerms), length: tokens.length };
    });
    this.avgLength = this.docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, this.docs.length);
  }

  /** Entries ranked for the latest user turn and its context, best first; only entries that match at all. */
  search(latestTurn: string, context: SearchContext = {}, limit = 5): Hit[] {
    const groups = this.queryGroups(latestTurn, context);
    const mainMass = groups.filter((g) => g.main).reduce((sum, g) => sum + this.groupIdf(g), 0);
    if (mainMass === 0) return [];
    const hits: Hit[] = [];
    for (const doc of this.docs) {
      let score = 0;
      let matchedMass = 0;
      const questionHits = new Set<string>();
      let groupsInQuestion = 0;
      for (const group of groups) {
        const best = Math.max(...group.terms.map((t) => this.termScore(doc, t)));
        if (best <= 0) continue;
        score += group.weight * best;
        if (!group.main) continue;
        matchedMass += this.groupIdf(group);
        const inQuestion = group.terms.filter((t) => doc.questionTerms.has(t));
        for (const t of inQuestion) questionHits.add(t);
        if (inQuestion.length > 0) groupsInQuestion++;
      }
      if (matchedMass === 0) continue;
      const mainGroups = groups.filter((g) => g.main).length;
      // How closely the entry's question and the asker's words overlap, both ways: "what are
      // webhooks?" is closer to "How do webhooks work?" than to an entry that mentions webhooks more.
      const questionOverlap = (questionHits.size / doc.questionTerms.size) * (groupsInQuestion / mainGroups);
      hits.push({
        entry: doc.entry,
        score: score * (1 + questionBonus * questionOverlap) * contextFactor(doc.entry, context),
        coverage: matchedMass / mainMass,
        questionMatch: groupsInQuestion > 0,
      });
    }
    return hits.sort((x, y) => y.score - x.score).slice(0, limit);
  }

  private queryGroups(latestTurn: string, context: SearchContext): QueryGroup[] {
    const groups: QueryGroup[] = termGroups(latestTurn).map((terms) => ({ terms, weight: 1, main: true }));
    const known = new Set(groups.map((g) => g.terms[0]));
    const addContext = (text: string, weight: number) => {
      for (const terms of termGroups(text)) {
        if (known.has(terms[0])) continue;
        known.add(terms[0]);
        groups.push({ terms, weight, main: false });
      }
    };
    const earlier = [...(context.earlierTurns ?? [])].reverse();
    for (const [i, turn] of earlier.entries()) addContext(turn, earlierTurnWeight / (i + 1));
    if (context.eventType) addContext(context.eventType.replace(/[-_]/g, ' '), eventTypeWeight);
    return groups;
  }

  private idf(term: string): number {
    const n = this.df.get(term) ?? 0;
    return Math.log(1 + (this.docs.length - n + 0.5) / (n + 0.5));
  }

  /** A word's information: its rarest indexed form (a word the FAQ never uses counts at full rarity). */
  private groupIdf(group: QueryGroup): number {
    return Math.max(...group.terms.map((t) => this.idf(t)));
  }

  private termScore(doc: IndexedEntry, term: string): number {
    const f = doc.tf.get(term) ?? 0;
    if (f === 0) return 0;
    return (this.idf(term) * f * (k1 + 1)) / (f + k1 * (1 - b + (b * doc.length) / this.avgLength));
  }
}

/**
 * Entries written for the asker's audience, surface and stage rank a little higher; entries for
 * the other audience a little lower. Untagged entries are for everyone and stay as they are.
 */
function contextFactor(entry: FaqEntry, context: SearchContext): number {
  let factor = 1;
  if (context.audience && entry.audience.length)
    factor *= entry.audience.includes(context.audience) ? 1.25 : 0.75;
  if (context.surface && entry.surface.length) factor *= entry.surface.includes(context.surface) ? 1.1 : 0.9;
  if (context.stage && entry.stage.length) factor *= entry.stage.includes(context.stage) ? 1.1 : 0.95;
  return factor;
}
