import type { GathercastClient } from '@gathercast/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractiveSummaryText } from '../src/content/extractive';
import { speakerStats } from '../src/content/text-analysis';
import { eventIn } from './support/events';
import { FakeLlm } from './support/fake-llm';
import { createWorkspace, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * A transcript produces the AI summary (docs/content.md): the built-in extractive engine without an
 * LLM; with LLM_BASE_URL the OpenAI-compatible model writes the text (the extractive engine takes
 * over when it fails). Speaker statistics always come from the segments.
 */

const talk = [
  {
    speakerName: 'Ada',
    userId: 'u-ada',
    startSeconds: 0,
    endSeconds: 8,
    text: 'Today we review the hiring plan. The hiring plan needs two engineers.',
  },
  { speakerName: 'Ada', userId: 'u-ada', startSeconds: 8, endSeconds: 12, text: 'Engineers start in March.' },
  {
    speakerName: 'Bo',
    startSeconds: 12,
    endSeconds: 20.5,
    text: 'Can the hiring plan also cover a designer? Design work is blocking the launch.',
  },
  { startSeconds: 20.5, endSeconds: 22, text: 'Noted.' },
  {
    speakerName: 'Ada',
    userId: 'u-ada',
    startSeconds: 22,
    endSeconds: 30,
    text: 'Yes, the plan adds a designer in April.',
  },
];

let plain: TestServer;
let llmServer: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm?.close());
useTestServer({}, (started) => {
  plain = started;
});
// Registered after the fake LLM's hooks: started once it listens (the env is read then), closed before it.
useTestServer(
  () => ({ LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'sk-test-key', LLM_MODEL: 'tiny-model' }),
  (started) => {
    llmServer = started;
  },
);

async function clientOf(t: TestServer): Promise<GathercastClient> {
  return t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
}

async function summaryAfterIngest(t: TestServer, segments = talk) {
  const gc = await clientOf(t);
  const event = await eventIn(gc, 'ended', [{ modality: 'broadcast' }], { visibility: 'public' });
  const transcript = await gc.content.createTranscript(event.id, { segments });
  const { summary } = await t.client().public.retrieveRecap(event.id);
  const engine = await withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ engine: string }>(
      'select engine from content_summary where transcript_id = $1',
      [transcript.id],
    );
    return res.rows[0]?.engine;
  });
  return { summary, engine };
}

describe('speaker statistics', () => {
  it('counts words, turns (runs of consecutive segments) and talk time per speaker, most words first', () => {
    expect(speakerStats(talk)).toEqual([
      { name: 'Ada', userId: 'u-ada', words: 24, turns: 2, talkSeconds: 20 },
      { name: 'Bo', userId: null, words: 14, turns: 1, talkSeconds: 8.5 },
      { name: null, userId: null, words: 1, turns: 1, talkSeconds: 1.5 },
    ]);
  });

  it('orders segments by start time before counting turns', () => {
    const shuffled = [talk[4]!, talk[2]!, talk[0]!, talk[3]!, talk[1]!];
    expect(speakerStats(shuffled)).toEqual(speakerStats(talk));
  });
});

describe('extractive engine', () => {
  it('is deterministic and only uses sentences that were said', () => {
    const text = extractiveSummaryText(talk);
    expect(extractiveSummaryText(talk)).toBe(text);
    const said = talk.map((s) => s.text).join(' ');
    for (const sentence of text.split(/(?<=[.!?])\s+/)) expect(said).toContain(sentence);
  });

  it('picks the sentences that carry the most repeated keywords', () => {
    expect(extractiveSummaryText(talk)).toBe(
      'The hiring plan needs two engineers. Can the hiring plan also cover a designer?',
    );
  });
});

describe('summary on transcript ingest', () => {
  it('without an LLM, stores the extractive summary with speaker stats and shows it in the recap', async () => {
    const { summary, engine } = await summaryAfterIngest(plain);
    expect(engine).toBe('extractive');
    expect(summary).toEqual({
      text: extractiveSummaryText(talk),
      speakers: speakerStats(talk),
      generatedAt: expect.any(String),
    });
  });

  it('excludes breakout-table talk from the event summary', async () => {
    const gc = await clientOf(plain);
    const event = await eventIn(gc, 'ended', [{ modality: 'breakout' }], { visibility: 'public' });
    await gc.content.createTranscript(event.id, {
      segments: [
        { speakerName: 'Host', startSeconds: 0, endSeconds: 5, text: 'Welcome back from the tables.' },
        {
          speakerName: 'Tia',
          userId: 'tia',
          roomId: `evt_${event.id}_table_1`,
          startSeconds: 5,
          endSeconds: 9,
          text: 'My secret table remark.',
        },
      ],
    });
    const { summary } = await plain.client().public.retrieveRecap(event.id);
    expect(summary?.text).toBe('Welcome back from the tables.');
    expect(summary?.speakers.map((s) => s.name)).toEqual(['Host']);
  });

  it('with an LLM, asks /chat/completions with the model and key, and stores its text', async () => {
    llm.reply = () => ({ content: '  The team agreed on the hiring plan.  ' });
    const before = llm.requests.length;
    const { summary, engine } = await summaryAfterIngest(llmServer);
    expect(engine).toBe('llm');
    expect(summary?.text).toBe('The team agreed on the hiring plan.');
    expect(summary?.speakers).toEqual(speakerStats(talk));
    const [req] = llm.requests.slice(before);
    expect(req).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test-key' });
    expect(req!.body.model).toBe('tiny-model');
    expect(req!.body.messages.at(-1)!.content).toContain('Bo: Can the hiring plan also cover a designer?');
  });

  it.each([
    ['answers 500', () => ({ status: 500, raw: '{"error":"boom"}' })],
    ['answers no text', () => ({ content: '' })],
    ['answers something that is not JSON', () => ({ raw: '<html>' })],
  ])('falls back to the extractive engine when the LLM %s', async (_, reply) => {
    llm.reply = reply;
    const { summary, engine } = await summaryAfterIngest(llmServer);
    expect(engine).toBe('extractive');
    expect(summary?.text).toBe(extractiveSummaryText(talk));
  });
});
