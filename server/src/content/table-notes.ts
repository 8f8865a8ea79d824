import type { TableDigest } from './extractive';
import { promptCoverage } from './extractive';
import type { Segment } from './rows';
import {
  inSpokenOrder,
  isIdea,
  isQuestion,
  type Sentence,
  sentencesOf,
  speakerKeyOf,
  speakerStats,
  wordCount,
} from './text-analysis';

/** Breakout table rooms are `evt_<eventId>_table_<n>`. */
const tableRoom = /^evt_(.+)_table_(\d+)$/i;

export const isTableRoom = (roomId: string | null | undefined) => !!roomId && tableRoom.test(roomId);

export interface TableInput {
  roomId: string;
  number: number;
  segments: Segment[];
}

/**
 * Splits a transcript: segments of this event's breakout tables, per table (by table number), and
 * the rest. Segments of any table room never reach the event-wide summary (it is public; table
 * talk is only for the table's own members); table rooms of another event are ignored.
 */
export function splitByTable(
  eventId: string,
  segments: Segment[],
): { tables: TableInput[]; rest: Segment[] } {
  const tables = new Map<string, TableInput>();
  const rest: Segment[] = [];
  for (const seg of segments) {
    const m = seg.roomId ? tableRoom.exec(seg.roomId) : null;
    if (!m) {
      rest.push(seg);
      continue;
    }
    const number = Number(m[2]);
    if (m[1]!.toLowerCase() !== eventId.toLowerCase() || number < 1 || !Number.isSafeInteger(number))
      continue;
    const roomId = `evt_${eventId}_table_${number}`;
    const table = tables.get(roomId) ?? { roomId, number, segments: [] };
    table.segments.push(seg);
    tables.set(roomId, table);
  }
  return { tables: [...tables.values()].sort((a, b) => a.number - b.number), rest };
}

export interface Badge {
  id: string;
  name: string;
  description: string;
  tier: number;
  icon: string;
  glyph?: string;
}

export interface TablePerson {
  userId: string;
  name: string | null;
  words: number;
  turns: number;
  badges: Badge[];
}

/** A person of the workspace that a segment's userId resolved to. */
export interface ResolvedUser {
  id: string;
  name: string | null;
  email: string | null;
}

export interface BuiltTableNotes {
  summary: TableDigest & { perQuestion: ReturnType<typeof promptCoverage> };
  stats: {
    totalWords: number;
    promptsCovered: number;
    promptsTotal: number;
    lifetimeSeconds: number;
    headcount: number;
  };
  people: TablePerson[];
}

/**
 * The badges (docs/content.md), all from the table's own segments:
 * - `icebreaker`: spoke first at the table (tier 1);
 * - `top_voice`: most words at the table, ties shared, only when at least two people spoke (tier 1);
 * - `curious_mind`: asked questions (sentences ending in "?"): tier 1 for 1–2, tier 2 for 3 or more;
 * - `idea_sparker`: made proposals ("we could", "what if", "let's", …): tier 1 for 1–2, tier 2 for 3 or more.
 */
function badgesOf(
  key: string,
  words: number,
  ctx: { firstKey: string | null; maxWords: number; speakers: number; sentences: Sentence[] },
): Badge[] {
  const badges: Badge[] = [];
  if (key === ctx.firstKey) {
    badges.push({
      id: 'icebreaker',
      name: 'Icebreaker',
      description: 'Spoke first at the table',
      tier: 1,
      icon: 'flag',
      glyph: '🧊',
    });
  }
  if (ctx.speakers >= 2 && words > 0 && words === ctx.maxWords) {
    badges.push({
      id: 'top_voice',
      name: 'Top voice',
      description: 'Said the most words at the table',
      tier: 1,
      icon: 'mic',
      glyph: '🎙️',
    });
  }
  const mine = ctx.sentences.filter((s) => s.speakerKey === key);
  const questions = mine.filter(isQuestion).length;
  if (questions > 0) {
    badges.push({
      id: 'curious_mind',
      name: 'Curious mind',
      description: `Asked ${questions} question${questions === 1 ? '' : 's'}`,
      tier: questions >= 3 ? 2 : 1,
      icon: 'help-circle',
      glyph: '❓',
    });
  }
  const ideas = mine.filter(isIdea).length;
  if (ideas > 0) {
    badges.push({
      id: 'idea_sparker',
      name: 'Idea sparker',
      description: `Proposed ${ideas} idea${ideas === 1 ? '' : 's'}`,
      tier: ideas >= 3 ? 2 : 1,
      icon: 'lightbulb',
      glyph: '💡',
    });
  }
  return badges;
}

/**
 * The notes of one table from its digest, the breakout prompts (none today: perQuestion is [] and
 * promptsTotal 0) and the users its segments' userIds resolved to. People are the speakers with a
 * userId (the resolved user's id when it resolved), most words first.
 */
export function buildTableNotes(
  table: TableInput,
  digest: TableDigest,
  prompts: string[],
  users: Map<string, ResolvedUser>,
): BuiltTableNotes {
  const ordered = inSpokenOrder(table.segments);
  const stats = speakerStats(ordered);
  const sentences = sentencesOf(ordered);
  const perQuestion = promptCoverage(ordered, prompts);
  const first = ordered[0] ? speakerKeyOf(ordered[0]) : null;
  const ctx = {
    firstKey: first,
    maxWords: stats.reduce((m, s) => Math.max(m, s.words), 0),
    speakers: stats.length,
    sentences,
  };
  const people = stats
    .filter((s) => s.userId)
    .map((s) => {
      const user = users.get(s.userId!);
      return {
        userId: user?.id ?? s.userId!,
        name: user?.name ?? s.name,
        words: s.words,
        turns: s.turns,
        badges: badgesOf(`user:${s.userId}`, s.words, ctx),
      };
    });
  // Reduced, not spread: a table may have thousands of segments.
  const start = ordered.reduce((m, s) => Math.min(m, s.startSeconds), Number.POSITIVE_INFINITY);
  const end = ordered.reduce((m, s) => Math.max(m, s.endSeconds), 0);
  return {
    summary: { ...digest, perQuestion },
    stats: {
      totalWords: ordered.reduce((n, s) => n + wordCount(s.text), 0),
      promptsCovered: perQuestion.filter((p) => p.discussed).length,
      promptsTotal: prompts.length,
      lifetimeSeconds: Math.max(0, Math.round(end - start)),
      headcount: stats.length,
    },
    people,
  };
}

/**
 * Discussion prompts of the event's breakout phase: a `prompts` array of strings in its config. The
 * breakout config schema has no such field today, so this is empty and perQuestion is [].
 */
export function breakoutPrompts(phases: { modality: string; config: Record<string, unknown> }[]): string[] {
  for (const p of phases) {
    if (p.modality !== 'breakout') continue;
    const prompts = p.config?.prompts;
    if (Array.isArray(prompts)) {
      const list = prompts.filter((q): q is string => typeof q === 'string' && q.trim().length > 0);
      if (list.length) return list;
    }
  }
  return [];
}
