import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashSecret } from '../src/lib/secrets';
import { withoutUserData } from '../src/logger';
import { failure, mailboxOf, signUp } from './support/accounts';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({ LOG_LEVEL: 'debug' }, async (started) => {
  t = started;
  // The database refuses rows whose name carries the marker, so the statements that write a password
  // hash, a key hash, a name and an email fail the way a real outage or constraint would.
  await withDb(t.databaseUrl, (db) =>
    db.query(`
      create function refuse_marked() returns trigger language plpgsql as $$
      begin
        if new.name like '%[refuse]%' then raise exception 'refused by the test trigger'; end if;
        return new;
      end $$;
      create trigger refuse_marked before insert on account for each row execute function refuse_marked();
      create trigger refuse_marked before insert on api_key for each row execute function refuse_marked();
      create trigger refuse_marked before insert on registration for each row execute function refuse_marked();
    `),
  );
});

const unique = () => randomBytes(4).toString('hex');

describe('logs carry no secrets and no user data', () => {
  it('logs failed statements without their values, and no name, email, secret or hash of a whole flow', async () => {
    const userData: string[] = [];
    const secrets: string[] = [];

    // The happy path: an account, a key, a webhook, an event with a registration and a user.
    const ownerName = `Quinlan Vexworth ${unique()}`;
    const owner = await signUp(t, 'logflow', ownerName);
    userData.push(ownerName, owner.email);
    secrets.push(owner.password, owner.sessionToken);
    await failure(t.client().accounts.login({ email: owner.email, password: 'not-the-password' }));
    const key = await owner.client.apiKeys.create(owner.workspaceId, { name: 'logs' });
    secrets.push(key.secret);
    const gc = t.client({ apiKey: key.secret });
    const webhook = await gc.webhooks.create({ url: 'http://127.0.0.1:9/hook' });
    secrets.push(webhook.secret);
    const event = await eventIn(gc, 'scheduled', [{ modality: 'broadcast' }], { visibility: 'public' });
    const guestName = `Marisol Quenby ${unique()}`;
    const guestEmail = `marisol-${unique()}@example.test`;
    userData.push(guestName, guestEmail);
    await t.client().public.register(event.id, { name: guestName, email: guestEmail });
    expect((await mailboxOf(t, guestEmail)).length).toBe(1);
    const userName = `Thaddeus Orrin ${unique()}`;
    const userEmail = `thaddeus-${unique()}@example.test`;
    userData.push(userName, userEmail);
    await gc.users.upsert({ externalSub: `sub-${unique()}`, name: userName, email: userEmail });

    // Statements that fail in the database, each carrying a hash, a name or an email.
    const refusedName = `[refuse] Ottilie Brannagh ${unique()}`;
    const refusedEmail = `ottilie-${unique()}@example.test`;
    const refusedPassword = `pw-${unique()}-${unique()}`;
    userData.push(refusedName, refusedEmail);
    secrets.push(refusedPassword);
    const signup = await failure(
      t.client().accounts.signup({ name: refusedName, email: refusedEmail, password: refusedPassword }),
    );
    expect(signup.status).toBe(500);
    expect(
      (await failure(owner.client.apiKeys.create(owner.workspaceId, { name: '[refuse] key' }))).status,
    ).toBe(500);
    const refusedGuest = `[refuse] Peregrine Alcott ${unique()}`;
    const refusedGuestEmail = `peregrine-${unique()}@example.test`;
    userData.push(refusedGuest, refusedGuestEmail);
    expect(
      (await failure(t.client().public.register(event.id, { name: refusedGuest, email: refusedGuestEmail })))
        .status,
    ).toBe(500);

    const logs = t.logText();
    // The failures are logged, statement included, with each value replaced by `?`.
    const failed = t.logs().filter((l) => l.msg === 'unhandled error');
    expect(failed.length).toBe(3);
    const messages = failed.map((l) => String((l.err as { message?: string }).message));
    expect(
      messages.some((m) => /insert into account \(id, name, password_hash\) values \(\?, \?, \?\)/.test(m)),
    ).toBe(true);
    expect(messages.every((m) => m.includes('refused by the test trigger'))).toBe(true);

    const leaked = [
      ...userData,
      ...userData.map((s) => s.toLowerCase()),
      ...secrets,
      ...secrets.map(hashSecret),
      ...[key.secret, webhook.secret, owner.sessionToken].map(hashSecret),
    ].filter((s) => logs.includes(s));
    expect(leaked).toEqual([]);
    expect(logs).not.toContain('$argon2id$');
    expect(logs).not.toMatch(/\b[0-9a-f]{64}\b/);
    expect(logs).not.toMatch(/[A-Za-z0-9._-]+@example\.test/);
  });
});

describe('the log text filter', () => {
  it('replaces every inlined value of a failed statement, over several lines, and keeps the reason', () => {
    const text = `DriverException: update account
  set name = 'Pat O''Brien', password_hash = E'$argon2id$v=19$x'
  where id = '5d1c' - value too long
    at Connection.execute (connection.js:1:2)
    at handle (routes.ts:3:4)`;
    expect(withoutUserData(text)).toBe(`DriverException: update account
  set name = ?, password_hash = ?
  where id = ? - value too long
    at Connection.execute (connection.js:1:2)
    at handle (routes.ts:3:4)`);
  });

  it('keeps quotes in messages that are not statements, and removes email addresses anywhere', () => {
    expect(withoutUserData("Cannot read properties of undefined (reading 'x')")).toBe(
      "Cannot read properties of undefined (reading 'x')",
    );
    expect(withoutUserData('550 mailbox <pat.doe@example.org> unavailable')).toBe(
      '550 mailbox <[email]> unavailable',
    );
  });
});
