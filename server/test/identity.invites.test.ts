import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyOf, failure, mailboxOf, type SignedUp, signUp, uniqueEmail } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

function sql(text: string, params: unknown[] = []) {
  return t.server.ctx.orm.em.getConnection().execute(text, params);
}

type Modality = 'broadcast' | 'meeting' | 'breakout';

/** An event of the person's (only) workspace whose phases have these modalities. */
async function eventWith(person: SignedUp, modalities: Modality[]): Promise<string> {
  const event = await person.client.events.create({
    type: 'webinar',
    title: 'Launch day',
    phases: modalities.map((modality) => ({ modality })),
  });
  return event.id;
}

const tokenOf = (url: string) => url.split('/').pop()!;

describe('workspace invites', () => {
  it('creates a link invite (no email) that returns its URL once and lists without it', async () => {
    const owner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    expect(invite).toMatchObject({
      kind: 'workspace',
      role: 'member',
      email: null,
      eventId: null,
      status: 'pending',
    });
    expect(invite.url).toMatch(new RegExp(`^${t.url}/invites/gci_[A-Za-z0-9_-]{43}$`));
    const { invites } = await owner.client.invites.list(owner.workspaceId);
    expect(invites.map((i) => i.id)).toEqual([invite.id]);
    expect(JSON.stringify(invites)).not.toContain(tokenOf(invite.url!));
  });

  it('expires 14 days after creation', async () => {
    const owner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    const days = (new Date(invite.expiresAt).getTime() - new Date(invite.createdAt).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(14, 3);
  });

  it('emails an invite with an email and, in email dev mode, returns its URL', async () => {
    const owner = await signUp(t);
    const email = uniqueEmail('invitee');
    const invite = await owner.client.invites.create(owner.workspaceId, {
      kind: 'workspace',
      email,
      role: 'admin',
    });
    const [mail] = await mailboxOf(t, email);
    expect(mail!.links).toEqual([invite.url]);
  });

  it('can be created with the workspace API key', async () => {
    const owner = await signUp(t);
    const invite = await t
      .client({ apiKey: await apiKeyOf(owner) })
      .invites.create(owner.workspaceId, { kind: 'workspace' });
    expect(invite.workspaceId).toBe(owner.workspaceId);
  });

  it('refuses a workspace role other than member or admin with 400 bad_request', async () => {
    const owner = await signUp(t);
    const err = await failure(
      owner.client.invites.create(owner.workspaceId, { kind: 'workspace', role: 'owner' }),
    );
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });

  it('previews publicly with the workspace, role and status', async () => {
    const owner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace', role: 'admin' });
    const preview = await t.client().invites.retrieve(tokenOf(invite.url!));
    expect(preview).toMatchObject({
      kind: 'workspace',
      status: 'pending',
      role: 'admin',
      event: null,
      workspace: { id: owner.workspaceId },
    });
  });

  it('previews an unknown token with 404 not_found', async () => {
    const err = await failure(t.client().invites.retrieve('gci_unknown'));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('adds the accepting account as a member with the invited role', async () => {
    const owner = await signUp(t);
    const joiner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace', role: 'admin' });
    const accepted = await joiner.client.invites.accept(tokenOf(invite.url!));
    expect(accepted).toEqual({
      kind: 'workspace',
      workspaceId: owner.workspaceId,
      eventId: null,
      role: 'admin',
    });
    const me = await joiner.client.accounts.retrieve();
    expect(me.workspaces).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: owner.workspaceId, role: 'admin' })]),
    );
    const { invites } = await owner.client.invites.list(owner.workspaceId);
    expect(invites[0]).toMatchObject({ status: 'accepted', acceptedAt: expect.any(String) });
  });

  it('needs an account session to accept (401 unauthorized without one)', async () => {
    const owner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    const err = await failure(t.client().invites.accept(tokenOf(invite.url!)));
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });

  it('lets only an account owning the invited email accept it (403 forbidden otherwise)', async () => {
    const owner = await signUp(t);
    const invited = await signUp(t, 'invited');
    const someoneElse = await signUp(t, 'else');
    const invite = await owner.client.invites.create(owner.workspaceId, {
      kind: 'workspace',
      email: invited.email,
    });
    const err = await failure(someoneElse.client.invites.accept(tokenOf(invite.url!)));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
    await invited.client.invites.accept(tokenOf(invite.url!));
  });

  it('works once: a second accept is 400 invalid_token', async () => {
    const owner = await signUp(t);
    const [a, b] = [await signUp(t), await signUp(t)];
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    await a.client.invites.accept(tokenOf(invite.url!));
    const err = await failure(b.client.invites.accept(tokenOf(invite.url!)));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
  });

  it('cannot be accepted once revoked (400 invalid_token) and lists as revoked', async () => {
    const owner = await signUp(t);
    const joiner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    await owner.client.invites.delete(owner.workspaceId, invite.id);
    const err = await failure(joiner.client.invites.accept(tokenOf(invite.url!)));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
    const { invites } = await owner.client.invites.list(owner.workspaceId);
    expect(invites[0]!.status).toBe('revoked');
  });

  it('cannot be accepted after 14 days (400 invalid_token) and lists as expired', async () => {
    const owner = await signUp(t);
    const joiner = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    await sql(`update invite set expires_at = now() - interval '1 second' where id = ?`, [invite.id]);
    const err = await failure(joiner.client.invites.accept(tokenOf(invite.url!)));
    expect([err.status, err.code]).toEqual([400, 'invalid_token']);
    const { invites } = await owner.client.invites.list(owner.workspaceId);
    expect(invites[0]!.status).toBe('expired');
  });

  it('answers revoking another workspace’s invite with 404 not_found', async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace' });
    const err = await failure(stranger.client.invites.delete(stranger.workspaceId, invite.id));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });
});

describe('event invites', () => {
  let owner: SignedUp;
  beforeAll(async () => {
    owner = await signUp(t, 'event-owner');
  });

  it('accepts a role the event’s phases have a place for', async () => {
    const eventId = await eventWith(owner, ['broadcast']);
    const invite = await owner.client.invites.create(owner.workspaceId, {
      kind: 'event',
      eventId,
      role: 'speaker',
    });
    expect(invite).toMatchObject({ kind: 'event', eventId, role: 'speaker' });
    const preview = await t.client().invites.retrieve(tokenOf(invite.url!));
    expect(preview.event).toEqual({ id: eventId, title: 'Launch day' });
  });

  it('refuses a role the event has no place for with 400 role_not_on_event listing accepted roles', async () => {
    const eventId = await eventWith(owner, ['meeting']);
    const err = await failure(
      owner.client.invites.create(owner.workspaceId, { kind: 'event', eventId, role: 'speaker' }),
    );
    expect([err.status, err.code]).toEqual([400, 'role_not_on_event']);
    expect(err.detail).toContain('host, participant, workspace_admin');
    expect(err.body.acceptedRoles).toEqual(['host', 'participant', 'workspace_admin']);
  });

  it('accepts the union of the roles of several phases', async () => {
    const eventId = await eventWith(owner, ['broadcast', 'breakout']);
    for (const role of ['viewer', 'participant', 'workspace_admin']) {
      const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'event', eventId, role });
      expect(invite.role).toBe(role);
    }
  });

  it('answers another workspace’s event with 404 not_found', async () => {
    const stranger = await signUp(t);
    const eventId = await eventWith(stranger, ['meeting']);
    const err = await failure(
      owner.client.invites.create(owner.workspaceId, { kind: 'event', eventId, role: 'host' }),
    );
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('needs an eventId for event invites (400 bad_request naming body.eventId)', async () => {
    const err = await failure(
      owner.client.invites.create(owner.workspaceId, { kind: 'event', role: 'host' }),
    );
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
    expect(err.body.errors).toEqual([expect.objectContaining({ path: 'body.eventId' })]);
  });

  it('gives the accepting account’s bridged user a membership of the event with the role', async () => {
    const eventId = await eventWith(owner, ['meeting']);
    const guest = await signUp(t, 'guest');
    const invite = await owner.client.invites.create(owner.workspaceId, {
      kind: 'event',
      eventId,
      role: 'host',
    });
    const accepted = await guest.client.invites.accept(tokenOf(invite.url!));
    expect(accepted).toEqual({ kind: 'event', workspaceId: owner.workspaceId, eventId, role: 'host' });
    const rows = await sql(
      `select m.role from event_membership m join app_user u on u.id = m.user_id
        where m.event_id = ? and u.account_id = ? and u.external_sub = ?`,
      [eventId, guest.accountId, `account:${guest.accountId}`],
    );
    expect(rows).toEqual([{ role: 'host' }]);
    const me = await guest.client.accounts.retrieve();
    expect(me.workspaces.map((w) => w.id)).not.toContain(owner.workspaceId);
  });
});
