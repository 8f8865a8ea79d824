import type pg from 'pg';
import { Batcher } from '../../lib/batcher';

export interface LoggedLine {
  id: string;
  workspaceId: string;
  eventId: string;
  participantId: string;
  authorName: string | null;
  role: string;
  anonymous: boolean;
  text: string;
  sentAt: string;
}

/**
 * The durable chat log (live_chat_message): every line the gateway accepts is written before it is
 * sent on, so the log read after the event (GET /v1/events/{id}/chat) holds every line anyone saw.
 * Lines that arrive while a write is running go together in the next one: a chat storm costs a few
 * inserts a second, a lone line one insert at once.
 */
export class ChatLog {
  readonly #writes = new Batcher<LoggedLine, undefined>((lines) => this.#write(lines), 500, 2);

  constructor(private readonly pool: Pick<pg.Pool, 'query'>) {}

  append(line: LoggedLine): Promise<undefined> {
    return this.#writes.submit(line);
  }

  async #write(lines: LoggedLine[]): Promise<undefined[]> {
    await this.pool.query(
      `insert into live_chat_message
         (id, workspace_id, event_id, participant_id, author_name, role, anonymous, text, sent_at)
       select x.id, x.workspace_id, x.event_id, x.participant_id, x.author_name, x.role, x.anonymous, x.text, x.sent_at
         from jsonb_to_recordset($1::jsonb) as x(id uuid, workspace_id uuid, event_id uuid, participant_id text,
              author_name text, role text, anonymous boolean, text text, sent_at timestamptz)`,
      [
        JSON.stringify(
          lines.map((l) => ({
            id: l.id,
            workspace_id: l.workspaceId,
            event_id: l.eventId,
            participant_id: l.participantId,
            author_name: l.authorName,
            role: l.role,
            anonymous: l.anonymous,
            text: l.text,
            sent_at: l.sentAt,
          })),
        ),
      ],
    );
    return lines.map(() => undefined);
  }
}
