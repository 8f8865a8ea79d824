import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LlmRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[]; response_format?: { type: string } };
}

/** What the fake answers: a status and a chat-completions body (or raw text). */
export type LlmReply = (req: LlmRequest) => { status?: number; content?: string; raw?: string };

/** A tiny OpenAI-compatible `/chat/completions` server on loopback that records every request. */
export class FakeLlm {
  readonly requests: LlmRequest[] = [];
  reply: LlmReply = () => ({ content: 'A summary written by the model.' });
  private server!: Server;
  baseUrl = '';

  static async start(): Promise<FakeLlm> {
    const f = new FakeLlm();
    f.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: LlmRequest = {
          path: req.url ?? '/',
          authorization: req.headers.authorization,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        };
        f.requests.push(got);
        const r = f.reply(got);
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        res.end(
          r.raw ??
            JSON.stringify({
              choices: [{ index: 0, message: { role: 'assistant', content: r.content ?? '' } }],
            }),
        );
      });
    });
    await new Promise<void>((resolve) => f.server.listen(0, '127.0.0.1', resolve));
    f.baseUrl = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}/v1`;
    return f;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
