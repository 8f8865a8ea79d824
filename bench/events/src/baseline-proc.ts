// The baseline: a bare Express handler issuing the same SQL as the server (the same prepared statements,
// the server's row mapping) with pg directly: no validation, no logging, no ORM.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { eventListQuery } from '../../../server/src/events/list-query';
import { type EventRow, eventColumns, toEvent } from '../../../server/src/events/mapping';
import { hashSecret } from '../../../server/src/lib/secrets';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

/**
 * The server resolves a known API key from its in-process credential cache (no SQL once warm; see
 * server/src/http/credential-cache.ts), so the baseline does the same with a plain Map: the first
 * request per key reads it, later ones issue no authentication SQL, like the server.
 */
const keys = new Map<string, { id: string; workspaceId: string; lastUsedAt: number }>();

async function workspaceOf(req: express.Request): Promise<string | null> {
  const key = req.header('x-api-key');
  if (!key) return null;
  const keyHash = hashSecret(key);
  let found = keys.get(keyHash);
  if (!found) {
    const { rows } = await pool.query({
      name: 'base_key',
      text: 'select id, workspace_id, last_used_at from api_key where secret_hash = $1 and revoked_at is null',
      values: [keyHash],
    });
    if (!rows[0]) return null;
    found = { id: rows[0].id, workspaceId: rows[0].workspace_id, lastUsedAt: rows[0].last_used_at?.getTime() ?? 0 };
    keys.set(keyHash, found);
  }
  if (Date.now() - found.lastUsedAt > 60_000) {
    found.lastUsedAt = Date.now();
    await pool.query('update api_key set last_used_at = now() where id = $1', [found.id]);
  }
  return found.workspaceId;
}

const firstPage = eventListQuery(false);

const app = express();
app.use(express.json({ limit: '1mb' }));
app.get('/v1/events', async (req, res, next) => {
  try {
    const ws = await workspaceOf(req);
    if (!ws) return void res.status(401).json({ code: 'unauthorized' });
    // The server's list statement: PostgreSQL renders the page's JSON, sent as it comes.
    const { rows } = await pool.query({ name: 'base_list', text: firstPage.text, values: [ws, 100] });
    const page = firstPage.read(rows[0]);
    const cursor = page.next && Buffer.from(`${page.next.at}|${page.next.id}`).toString('base64url');
    res.type('application/json').send(`{"events":[${page.items}],"nextCursor":${JSON.stringify(cursor)}}`);
  } catch (err) {
    next(err);
  }
});
app.post('/v1/events', async (req, res, next) => {
  try {
    const ws = await workspaceOf(req);
    if (!ws) return void res.status(401).json({ code: 'unauthorized' });
    // The same single statement the server issues for a bare event from an API key.
    const { rows } = await pool.query<EventRow>({
      name: 'base_insert',
      text: `insert into event (id, workspace_id, type, title, scheduled_at, scheduled_end_at, visibility,
               allow_anonymous_voting, allow_anonymous_questions, capacity, metadata, created_by_account_id)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning ${eventColumns}`,
      values: [
        randomUUID(),
        ws,
        req.body.type,
        req.body.title,
        null,
        null,
        'unlisted',
        false,
        false,
        null,
        '{}',
        null,
      ],
    });
    res.status(201).json(toEvent(rows[0]!));
  } catch (err) {
    next(err);
  }
});

const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('SIGTERM', () => process.exit(0));
