import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, recorded, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

let n = 0;
const qaEvent = (extra = {}, featureSet: ('qa' | 'chat')[] = ['qa']) =>
  eventIn(gc, 'live', [{ modality: 'broadcast', featureSet }], { visibility: 'public', ...extra });
const person = async (eventId: string, role: 'host' | 'viewer' | 'speaker', name = `Person ${++n}`) => {
  const user = await gc.users.upsert({ externalSub: `live-q-${n}-${Date.now()}`, name });
  return LiveClient.join(t.server, await tokenFor(t.server, eventId, { role, userId: user.id, name }));
};
const anonymous = async (eventId: string) =>
  LiveClient.join(t.server, await tokenFor(t.server, eventId, { role: 'viewer', anonymous: true }));

describe('live Q&A', () => {
  it('stores a question, fires question.created and tells everyone', async () => {
    const event = await qaEvent();
    const asker = await person(event.id, 'viewer', 'Quinn');
    const other = await anonymous(event.id);
    asker.send({ type: 'question.create', text: '  When does it start?  ' });
    const message = await other.next('question.created');
    expect(message.question).toEqual({
      id: expect.any(String),
      text: 'When does it start?',
      authorName: 'Quinn',
      votes: 0,
    });
    await asker.next('question.created');
    const { questions } = await gc.questions.list(event.id);
    expect(questions).toMatchObject([
      {
        id: message.question.id,
        text: 'When does it start?',
        authorName: 'Quinn',
        anonymous: false,
        status: 'open',
        votes: 0,
      },
    ]);
    expect(await recorded(t.databaseUrl, event.id, 'question.created')).toEqual([
      { questionId: message.question.id, text: 'When does it start?' },
    ]);
    await asker.close();
    await other.close();
  });

  it('refuses questions while the phase has no qa feature', async () => {
    const event = await qaEvent({}, ['chat']);
    const asker = await person(event.id, 'viewer');
    asker.send({ type: 'question.create', text: 'Anyone?' });
    expect(await asker.next('error')).toMatchObject({ code: 'feature_disabled' });
    expect((await gc.questions.list(event.id)).questions).toEqual([]);
    await asker.close();
  });

  it('takes anonymous questions only when the event allows them, without an author name', async () => {
    const closed = await qaEvent();
    const a1 = await anonymous(closed.id);
    a1.send({ type: 'question.create', text: 'Psst' });
    expect(await a1.next('error')).toMatchObject({ code: 'forbidden' });
    await a1.close();

    const open = await qaEvent({ allowAnonymousQuestions: true });
    const a2 = await anonymous(open.id);
    a2.send({ type: 'question.create', text: 'Psst' });
    expect((await a2.next('question.created')).question).toMatchObject({ text: 'Psst', authorName: null });
    expect((await gc.questions.list(open.id)).questions).toMatchObject([
      { anonymous: true, authorName: null },
    ]);
    await a2.close();
  });

  it('refuses a question from a token whose user was deleted since, with forbidden and no question stored', async () => {
    const event = await qaEvent();
    const user = await gc.users.upsert({ externalSub: `live-q-gone-${Date.now()}`, name: 'Gone' });
    const asker = await LiveClient.join(
      t.server,
      await tokenFor(t.server, event.id, { role: 'viewer', userId: user.id, name: 'Gone' }),
    );
    await withDb(t.databaseUrl, (db) => db.query('delete from app_user where id = $1', [user.id]));
    asker.send({ type: 'question.create', text: 'Still here?' });
    expect(await asker.next('error')).toMatchObject({
      code: 'forbidden',
      detail: expect.stringMatching(/no longer exists/),
    });
    expect((await gc.questions.list(event.id)).questions).toEqual([]);
    expect(await recorded(t.databaseUrl, event.id, 'question.created')).toEqual([]);
    await asker.close();
  });

  it('counts one vote per participant and broadcasts the tally', async () => {
    const event = await qaEvent();
    const asker = await person(event.id, 'viewer');
    asker.send({ type: 'question.create', text: 'Slides?' });
    const { question } = await asker.next('question.created');
    const voter = await person(event.id, 'viewer');
    voter.send({ type: 'question.vote', questionId: question.id });
    expect(await asker.next('question.updated')).toMatchObject({
      type: 'question.updated',
      questionId: question.id,
      votes: 1,
      status: 'open',
    });
    voter.send({ type: 'question.vote', questionId: question.id });
    expect(await voter.next('error')).toMatchObject({ code: 'already_voted' });
    expect((await gc.questions.list(event.id)).questions[0]).toMatchObject({ votes: 1 });
    await asker.close();
    await voter.close();
  });

  it('takes anonymous votes only when the event allows them', async () => {
    const event = await qaEvent({ allowAnonymousVoting: false });
    const asker = await person(event.id, 'viewer');
    asker.send({ type: 'question.create', text: 'Q' });
    const { question } = await asker.next('question.created');
    const anon = await anonymous(event.id);
    anon.send({ type: 'question.vote', questionId: question.id });
    expect(await anon.next('error')).toMatchObject({ code: 'forbidden' });

    const allowing = await qaEvent({ allowAnonymousVoting: true });
    const asker2 = await person(allowing.id, 'viewer');
    asker2.send({ type: 'question.create', text: 'Q2' });
    const q2 = (await asker2.next('question.created')).question;
    const anon2 = await anonymous(allowing.id);
    anon2.send({ type: 'question.vote', questionId: q2.id });
    expect(await asker2.next('question.updated')).toMatchObject({ votes: 1 });
    for (const c of [asker, anon, asker2, anon2]) await c.close();
  });

  it('lets hosts, and only hosts, answer and dismiss questions', async () => {
    const event = await qaEvent();
    const asker = await person(event.id, 'speaker');
    const host = await person(event.id, 'host');
    asker.send({ type: 'question.create', text: 'First' });
    const first = (await asker.next('question.created')).question;
    asker.send({ type: 'question.create', text: 'Second' });
    const second = (await asker.next('question.created')).question;
    asker.send({ type: 'question.answer', questionId: first.id });
    expect(await asker.next('error')).toMatchObject({ code: 'forbidden' });
    host.send({ type: 'question.answer', questionId: first.id });
    expect(await asker.next('question.updated')).toMatchObject({ questionId: first.id, status: 'answered' });
    host.send({ type: 'question.dismiss', questionId: second.id });
    expect(await asker.next('question.updated')).toMatchObject({
      questionId: second.id,
      status: 'dismissed',
    });
    const { questions } = await gc.questions.list(event.id);
    expect(Object.fromEntries(questions.map((q) => [q.text, q.status]))).toEqual({
      First: 'answered',
      Second: 'dismissed',
    });
    await asker.close();
    await host.close();
  });
});
