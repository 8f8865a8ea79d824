import { describe, expect, it } from 'vitest';
import { withDb } from './support/fixtures';
import { askRaw, clientAddress, faq, faqEntry, replyTo } from './support/help';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({ TRUST_PROXY: 'true' }, (started) => {
  t = started;
});

const user = (text: string) => ({ role: 'user' as const, text });
const model = (text: string) => ({ role: 'model' as const, text });

describe('grounded answers', () => {
  it('answers "How do I go live?" with the FAQ entry, without credentials, through the SDK', async () => {
    const { reply } = await t.client().public.helpChat({ messages: [user('How do I go live?')] });
    expect(reply).toBe(faqEntry('How do I go live?').answer);
    expect(reply).toContain('POST /v1/events/{id}/start');
  });

  it.each([
    ['Can I make the breakout timer longer?', {}, 'Can a breakout timer be extended?'],
    ['how does speed networking work', { audience: 'host' }, 'How does speed networking (rotation) work?'],
    ['How do I revoke an API key?', {}, 'What happens when I revoke an API key?'],
    ['how do I check the signature of a webhook', {}, 'How do I verify a webhook signature?'],
    ['which roles exist?', {}, 'Which roles can people have on an event?'],
    [
      'Why can’t I turn on my camera?',
      { audience: 'viewer', surface: 'room', stage: 'live' },
      "Why can't I turn on my camera or microphone?",
    ],
    [
      'Where can I watch the recording?',
      { audience: 'viewer', stage: 'ended' },
      'Where can I watch the recording?',
    ],
    [
      'How do I ask a question in the Q&A?',
      { audience: 'viewer', surface: 'room' },
      'How do I ask a question?',
    ],
    ['What are webhooks?', {}, 'How do webhooks work?'],
  ])('answers %j from the matching FAQ entry', async (question, context, entryQuestion) => {
    expect(await replyTo(t.url, question, context)).toBe(faqEntry(entryQuestion).answer);
  });

  it('answers as the asking audience: a host learns how attendees register, a viewer how to register', async () => {
    expect(await replyTo(t.url, 'How do I register?', { audience: 'host', surface: 'dashboard' })).toBe(
      faqEntry('How do attendees register?').answer,
    );
    expect(
      await replyTo(t.url, 'How do I register?', { audience: 'viewer', surface: 'room', stage: 'prelive' }),
    ).toBe(faqEntry('How do I register for an event?').answer);
  });

  it('answers the latest user turn, not an earlier one', async () => {
    const res = await askRaw(t.url, {
      messages: [
        user('How do webhooks work?'),
        model(faqEntry('How do webhooks work?').answer),
        user('How do I go live?'),
      ],
    });
    expect(res.body.reply).toBe(faqEntry('How do I go live?').answer);
  });

  it('answers the latest user turn when the conversation ends with a model turn', async () => {
    const res = await askRaw(t.url, {
      messages: [user('How do I revoke an API key?'), model('Let me look that up.')],
    });
    expect(res.body.reply).toBe(faqEntry('What happens when I revoke an API key?').answer);
  });

  it('reads a follow-up in the light of the earlier user turn', async () => {
    const res = await askRaw(t.url, {
      messages: [
        user('How does speed networking work?'),
        model('It runs in rounds.'),
        user('And can the timer be extended?'),
      ],
      audience: 'host',
    });
    expect(res.body.reply).toBe(faqEntry('Can a breakout timer be extended?').answer);
  });

  it('answers every FAQ entry asked verbatim with that entry, whole', async () => {
    for (const entry of faq) {
      const context = { audience: entry.audience[0], surface: entry.surface[0], stage: entry.stage[0] };
      expect(await replyTo(t.url, entry.question, context), entry.question).toBe(entry.answer);
    }
  });
});

describe('questions the FAQ does not cover', () => {
  it('says it does not know instead of guessing, and points hosts to the API reference', async () => {
    const reply = await replyTo(t.url, 'What is the capital of France?', { audience: 'host' });
    expect(reply).toMatch(/^I don’t know/);
    expect(reply).toContain(`${t.url}/docs`);
    for (const entry of faq) expect(reply).not.toContain(entry.answer);
  });

  it('points viewers to the event’s host instead of the API reference', async () => {
    const reply = await replyTo(t.url, 'Can you recommend a good pizza place?', { audience: 'viewer' });
    expect(reply).toMatch(/^I don’t know/);
    expect(reply).toContain('host');
    expect(reply).not.toContain('/docs');
  });

  it('does not answer a question that only shares a common word with an entry', async () => {
    expect(await replyTo(t.url, 'How do I bake a cake for the live event?')).toMatch(/^I don’t know/);
    expect(await replyTo(t.url, 'Is there a mobile app?')).toMatch(/^I don’t know/);
  });
});

describe('validation', () => {
  const longText = (n: number) => 'a'.repeat(n);

  it.each([
    ['no messages', { messages: [] }, 'body.messages'],
    [
      '9 messages',
      { messages: Array.from({ length: 9 }, (_, i) => (i % 2 ? model('ok') : user('hi'))) },
      'body.messages',
    ],
    ['a 501-character user text', { messages: [user(longText(501))] }, 'body.messages.0.text'],
    ['an empty user text', { messages: [user('')] }, 'body.messages.0.text'],
    [
      'a 2201-character model text',
      { messages: [user('hi'), model(longText(2201)), user('go live?')] },
      'body.messages.1.text',
    ],
    ['an unknown role', { messages: [{ role: 'assistant', text: 'hi' }] }, 'body.messages.0.role'],
    [
      'an extra property on a message',
      { messages: [{ role: 'user', text: 'hi', at: 1 }] },
      'body.messages.0',
    ],
    ['an extra property on the body', { messages: [user('hi')], language: 'en' }, 'body'],
    ['an audience outside host|viewer', { messages: [user('hi')], audience: 'admin' }, 'body.audience'],
    ['a surface outside room|dashboard', { messages: [user('hi')], surface: 'mobile' }, 'body.surface'],
    ['a stage outside prelive|open|live|ended', { messages: [user('hi')], stage: 'draft' }, 'body.stage'],
    ['an empty eventType', { messages: [user('hi')], eventType: '' }, 'body.eventType'],
    ['a 41-character eventType', { messages: [user('hi')], eventType: longText(41) }, 'body.eventType'],
    ['no messages field', { audience: 'host' }, 'body.messages'],
    ['no user turn at all', { messages: [model('Hello, how can I help?')] }, 'body.messages'],
  ])('refuses %s with 400 bad_request naming the field', async (_what, body, path) => {
    const res = await askRaw(t.url, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('bad_request');
    expect((res.body.errors as { path: string }[]).map((e) => e.path)).toContain(path);
  });

  it('accepts the limits themselves: 8 messages, 500-character user text, 2200-character model text, 40-character eventType', async () => {
    const messages = [
      ...Array.from({ length: 3 }, () => [user(longText(500)), model(longText(2200))]).flat(),
      model('ok'),
      user('How do I go live?'),
    ];
    expect(messages).toHaveLength(8);
    const res = await askRaw(t.url, {
      messages,
      audience: 'host',
      surface: 'dashboard',
      eventType: longText(40),
      stage: 'prelive',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reply: faqEntry('How do I go live?').answer });
  });
});

describe('rate limit', () => {
  it('refuses the 21st request in a minute from one address with 429 rate_limited and Retry-After; another address is still served', async () => {
    const address = clientAddress();
    for (let i = 0; i < 20; i++) {
      expect((await askRaw(t.url, { messages: [user('How do I go live?')] }, address)).status).toBe(200);
    }
    const refused = await askRaw(t.url, { messages: [user('How do I go live?')] }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await askRaw(t.url, { messages: [user('How do I go live?')] }, clientAddress())).status).toBe(
      200,
    );
  });
});

describe('privacy', () => {
  it('keeps no answer for an Idempotency-Key: a repeat is answered afresh and nothing is stored', async () => {
    const key = `help-${Date.now()}`;
    const ask = () =>
      fetch(`${t.url}/v1/help/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ messages: [user('How do I go live?')] }),
      });
    for (const res of [await ask(), await ask()]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('idempotent-replayed')).toBeNull();
      expect(await res.json()).toEqual({ reply: faqEntry('How do I go live?').answer });
    }
    const stored = await withDb(t.databaseUrl, (db) =>
      db.query('select 1 from idempotency_record where key = $1', [key]),
    );
    expect(stored.rowCount).toBe(0);
  });

  it('does not write the conversation to the logs', async () => {
    const marker = `zebracorn-${Date.now()}`;
    await replyTo(t.url, `How do I go live with ${marker}?`);
    await replyTo(t.url, `What is ${marker}?`);
    expect(t.logText()).not.toContain(marker);
  });
});
