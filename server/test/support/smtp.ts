import { EventEmitter } from 'node:events';
import { SMTPServer } from 'smtp-server';
import { freePort } from './ports';

export interface ReceivedEmail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server (smtp-server) on a loopback port. `received` holds what it accepted; set
 * `refusing` to answer every recipient 451 (try again later). Emits `refused` (address) and
 * `received` (address, raw) per recipient.
 */
export interface TestSmtp {
  url: string;
  received: ReceivedEmail[];
  refusing: boolean;
  events: EventEmitter;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const port = await freePort();
  const events = new EventEmitter();
  const state: TestSmtp = {
    url: `smtp://127.0.0.1:${port}`,
    received: [],
    refusing: false,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!state.refusing) return callback();
      events.emit('refused', address.address);
      callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        state.received.push(mail);
        for (const to of mail.to) events.emit('received', to, mail.raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return state;
}
