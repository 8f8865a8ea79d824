import type { Logger } from 'pino';
import { z } from 'zod';
import { extractiveSummaryText, extractiveTableDigest, type TableDigest } from './extractive';
import { completeOrNull, type LlmConfig, transcriptForModel } from './llm';
import type { Segment, SpeakerStat } from './rows';
import { speakerStats } from './text-analysis';

export type EngineName = 'extractive' | 'llm';

export interface SummaryEngine {
  llm: LlmConfig | undefined;
  logger: Logger;
}

export interface GeneratedSummary {
  text: string;
  speakers: SpeakerStat[];
  engine: EngineName;
}

const summaryPrompt =
  'You summarize transcripts of live online events. Write a neutral summary of 3 to 6 sentences ' +
  'covering the main points and any decisions. Plain text only, no headings, no lists.';

/**
 * The AI summary of a transcript: the text from the LLM when one is configured (falling back to the
 * extractive engine when it fails), speaker statistics always computed from the segments themselves.
 */
export async function summarize(engine: SummaryEngine, segments: Segment[]): Promise<GeneratedSummary> {
  const speakers = speakerStats(segments);
  if (engine.llm) {
    const text = await completeOrNull(engine.llm, engine.logger, [
      { role: 'system', content: summaryPrompt },
      { role: 'user', content: transcriptForModel(segments) },
    ]);
    if (text) return { text, speakers, engine: 'llm' };
  }
  return { text: extractiveSummaryText(segments), speakers, engine: 'extractive' };
}

const digestPrompt =
  'You write notes for one small-group breakout table of a live event, from its transcript. Answer ' +
  'with one JSON object only: {"tldr": string (1-2 sentences), "themes": [{"title": string, "summary": ' +
  'string}] (at most 3), "ideas": [string] (at most 5 proposals made), "questions": [string] (at most ' +
  '5 open questions asked)}. Use only what was said.';

const llmDigestSchema = z.object({
  tldr: z.string().min(1),
  themes: z.array(z.object({ title: z.string(), summary: z.string() })).max(10),
  ideas: z.array(z.string()).max(20),
  questions: z.array(z.string()).max(20),
});

/** Strips a Markdown code fence some models wrap JSON in. */
const unfenced = (s: string) => s.replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');

/** One table's digest (tldr, themes, ideas, questions): LLM when configured and valid, else extractive. */
export async function digestTable(
  engine: SummaryEngine,
  segments: Segment[],
): Promise<{ digest: TableDigest; engine: EngineName }> {
  if (engine.llm) {
    const answer = await completeOrNull(
      engine.llm,
      engine.logger,
      [
        { role: 'system', content: digestPrompt },
        { role: 'user', content: transcriptForModel(segments) },
      ],
      { json: true },
    );
    if (answer) {
      try {
        const parsed = llmDigestSchema.safeParse(JSON.parse(unfenced(answer)));
        if (parsed.success) {
          const d = parsed.data;
          return {
            digest: {
              tldr: d.tldr,
              themes: d.themes.slice(0, 3),
              ideas: d.ideas.slice(0, 5),
              questions: d.questions.slice(0, 5),
            },
            engine: 'llm',
          };
        }
        engine.logger.warn('LLM table notes did not match the expected shape; using the extractive engine');
      } catch {
        engine.logger.warn('LLM table notes were not JSON; using the extractive engine');
      }
    }
  }
  return { digest: extractiveTableDigest(segments), engine: 'extractive' };
}
