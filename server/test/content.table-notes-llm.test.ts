import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailboxOf } from './support/accounts';
import { eventIn } from './support/events';
import { FakeLlm } from './support/fake-llm';
import { createWorkspace } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/** With an LLM configured, the model writes each table's digest; a bad answer falls back to extractive. */

let t: TestServer;
let llm: FakeLlm;
beforeAll(async () => {
  llm = await FakeLlm.start();
});
afterAll(() => llm?.close());
// Registered after the fake LLM's hooks: started once it listens (the env is read then), closed before it.
useTestServer(
  () => ({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'tiny-model' }),
  (started) => {
    t = started;
  },
);

const digest = {
  tldr: 'The table wants simpler signup.',
  themes: [{ title: 'Signup', summary: 'Too many steps.' }],
  ideas: ['Use magic links'],
  questions: ['Does it work on mobile?'],
};

async function ingestOneTable() {
  const gc = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
  const event = await eventIn(gc, 'ended', [{ modality: 'breakout' }], { visibility: 'public' });
  const user = await gc.users.upsert({
    externalSub: `lia-${event.id}`,
    name: 'Lia',
    email: `lia-${event.id}@example.test`,
  });
  await gc.content.createTranscript(event.id, {
    segments: [
      {
        userId: user.id,
        roomId: `evt_${event.id}_table_1`,
        startSeconds: 0,
        endSeconds: 5,
        text: 'Signup has too many steps. We could use magic links.',
      },
    ],
  });
  const link = (await mailboxOf(t, user.email!))[0]!.links[0]!;
  return t.client().public.retrieveTableSummary(event.id, { t: new URL(link).searchParams.get('t')! });
}

describe('table notes with an LLM', () => {
  it("asks for a JSON digest and uses the model's tldr, themes, ideas and questions", async () => {
    llm.reply = (req) =>
      req.body.response_format?.type === 'json_object'
        ? { content: JSON.stringify(digest) }
        : { content: 'x' };
    const notes = await ingestOneTable();
    expect(notes.summary).toEqual({ ...digest, perQuestion: [] });
    expect(notes.people.map((p) => p.name)).toEqual(['Lia']);
  });

  it('falls back to the extractive digest when the model answers JSON of another shape', async () => {
    llm.reply = () => ({ content: '{"summary":"nope"}' });
    const notes = await ingestOneTable();
    expect(notes.summary).toEqual({
      tldr: 'Signup has too many steps. We could use magic links.',
      themes: [],
      ideas: ['We could use magic links.'],
      questions: [],
      perQuestion: [],
    });
  });
});
