import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completeChat, LlmError } from '../src/help/llm';
import { askRaw, faqEntry } from './support/help';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

/** A tiny OpenAI-compatible chat endpoint whose next answer each test chooses. */
class FakeLlm {
  requests: SeenRequest[] = [];
  answer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer(async (req, res) => {
      const body = JSON.parse(await readBody(req));
      this.requests.push({
        method: req.method!,
        path: req.url!,
        authorization: req.headers.authorization,
        body,
      });
      const { status, body: answer, delayMs } = this.answer;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  replyWith(content: string): void {
    this.answer = {
      status: 200,
      body: { id: 'chatcmpl-1', choices: [{ index: 0, message: { role: 'assistant', content } }] },
    };
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

const user = (text: string) => ({ role: 'user' as const, text });
const model = (text: string) => ({ role: 'model' as const, text });

const llm = new FakeLlm();
let t: TestServer;
beforeAll(() => llm.start());
afterAll(() => llm.close());
// Registered after the fake LLM's hooks: started once it listens (the env is read then), closed before it.
useTestServer(
  () => ({
    TRUST_PROXY: 'true',
    LLM_BASE_URL: `${llm.url}/v1`,
    LLM_API_KEY: 'sk-test-key',
    LLM_MODEL: 'test-model',
  }),
  (started) => {
    t = started;
  },
);
beforeEach(() => {
  llm.requests = [];
});

describe('help chat with an LLM configured', () => {
  it('sends the retrieved FAQ entries and the conversation to /chat/completions and answers with the model’s reply', async () => {
    llm.replyWith('Publish the event, then call start. Nothing starts by itself.');
    const res = await askRaw(t.url, {
      messages: [user('What is a phase?'), model('A part of the agenda.'), user('How do I go live?')],
      audience: 'host',
      surface: 'dashboard',
      stage: 'prelive',
      eventType: 'webinar',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reply: 'Publish the event, then call start. Nothing starts by itself.' });

    expect(llm.requests).toHaveLength(1);
    const [seen] = llm.requests;
    expect([seen!.method, seen!.path, seen!.authorization]).toEqual([
      'POST',
      '/v1/chat/completions',
      'Bearer sk-test-key',
    ]);
    expect(seen!.body.model).toBe('test-model');
    const [system, ...conversation] = seen!.body.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain(faqEntry('How do I go live?').question);
    expect(system!.content).toContain(faqEntry('How do I go live?').answer);
    expect(system!.content).toContain('ONLY the FAQ entries');
    expect(system!.content).toContain('webinar');
    expect(conversation).toEqual([
      { role: 'user', content: 'What is a phase?' },
      { role: 'assistant', content: 'A part of the agenda.' },
      { role: 'user', content: 'How do I go live?' },
    ]);
  });

  it('sends the conversation only up to the latest user turn', async () => {
    llm.replyWith('Revoke it with DELETE.');
    await askRaw(t.url, { messages: [user('How do I revoke an API key?'), model('Checking…')] });
    const conversation = llm.requests[0]!.body.messages.slice(1);
    expect(conversation).toEqual([{ role: 'user', content: 'How do I revoke an API key?' }]);
  });

  it('cuts a reply longer than 2200 characters, so it can be sent back as a model turn', async () => {
    llm.replyWith(`${'Publish the event first. '.repeat(150)}`);
    const res = await askRaw(t.url, { messages: [user('How do I go live?')] });
    const reply = res.body.reply as string;
    expect(reply.length).toBeLessThanOrEqual(2200);
    expect(reply.endsWith('Publish the event first.')).toBe(true);
  });

  it('answers from the FAQ directly and logs a warning when the LLM fails', async () => {
    llm.answer = { status: 500, body: { error: { message: 'overloaded' } } };
    const res = await askRaw(t.url, { messages: [user('How do I go live?')] });
    expect(res.status).toBe(200);
    expect(res.body.reply).toBe(faqEntry('How do I go live?').answer);
    expect(llm.requests).toHaveLength(1);
    const warning = t.logs().find((l) => String(l.msg).startsWith('help chat: the LLM failed'));
    expect(warning).toMatchObject({ level: 40, err: 'LLM answered HTTP 500' });
  });

  it('answers from the FAQ directly when the LLM answers without any text', async () => {
    llm.answer = { status: 200, body: { choices: [] } };
    const res = await askRaw(t.url, { messages: [user('How do I revoke an API key?')] });
    expect(res.body.reply).toBe(faqEntry('What happens when I revoke an API key?').answer);
  });

  it('does not call the LLM when nothing in the FAQ relates to the question, and says it does not know', async () => {
    llm.replyWith('Paris.');
    const res = await askRaw(t.url, { messages: [user('What is the capital of France?')] });
    expect(res.body.reply).toMatch(/^I don’t know/);
    expect(llm.requests).toHaveLength(0);
  });
});

describe('the LLM client', () => {
  it('gives up after its timeout', async () => {
    llm.answer = { status: 200, body: { choices: [{ message: { content: 'late' } }] }, delayMs: 1_000 };
    const call = completeChat(
      { baseUrl: llm.url, apiKey: undefined, model: 'm' },
      'system',
      [user('hi')],
      100,
    );
    await expect(call).rejects.toThrow(LlmError);
    await expect(call).rejects.toThrow(/no answer within 100 ms/);
  });

  it('sends no Authorization header when no API key is configured', async () => {
    llm.replyWith('hello');
    await completeChat({ baseUrl: `${llm.url}/`, apiKey: undefined, model: 'm' }, 'system', [user('hi')]);
    expect(llm.requests[0]).toMatchObject({ path: '/chat/completions', authorization: undefined });
  });
});
