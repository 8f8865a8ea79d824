import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { rejection } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { openEvent, person, registrationFacts, tokenOf, waitForEmail } from './support/registrants';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace({ SCHEDULED_JOBS_INTERVAL_MS: '100' }, (started) => {
  ({ t, gc, anon } = started);
});

const questions = [
  { id: 'company', label: 'Company', type: 'text' as const, required: true },
  { id: 'role', label: 'Role', type: 'single_choice' as const, options: ['Engineer', 'Manager'] },
  { id: 'topics', label: 'Topics', type: 'multiple_choice' as const, options: ['API', 'Live', 'Reports'] },
];

async function eventWith(settings: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const event = await openEvent(gc, extra);
  await gc.registrations.updateSettings(event.id, settings);
  return event;
}

describe('registering', () => {
  it('answers the registration id, its status, a personal join link and the calendar file, keeping the old fields', async () => {
    const event = await openEvent(gc);
    const res = await anon.public.register(event.id, person());
    expect(res).toMatchObject({ registered: true, alreadyRegistered: false, status: 'registered' });
    expect(res.joinUrl).toMatch(/\/enter\?token=gce_/);
    expect(res.calendarUrl).toContain(`/v1/public/registrations/${res.registrationId}/calendar.ics`);
    const session = await anon.public.enter(event.id, { token: tokenOf(res.joinUrl!) });
    expect(session.sessionToken).toMatch(/^gce_/);
  });

  it('does not hand out a join link to someone registering an email again; it is emailed', async () => {
    const event = await openEvent(gc);
    const p = person();
    const first = await anon.public.register(event.id, p);
    const again = await anon.public.register(event.id, p);
    expect(again).toMatchObject({
      alreadyRegistered: true,
      registrationId: first.registrationId,
      joinUrl: null,
    });
  });

  it('stores valid answers with the registration', async () => {
    const event = await eventWith({ questions });
    const p = person();
    const answers = { company: ' Acme ', role: 'Engineer', topics: ['API', 'Reports'] };
    const { registrationId } = await anon.public.register(event.id, { ...p, answers });
    const reg = await gc.registrations.retrieve(event.id, registrationId);
    expect(reg).toMatchObject({
      email: p.email,
      status: 'registered',
      answers: { ...answers, company: 'Acme' },
    });
  });

  it('refuses answers that do not fit the form with 400 naming each one', async () => {
    const event = await eventWith({ questions });
    const err = await rejection(
      anon.public.register(event.id, {
        ...person(),
        answers: { role: 'CEO', topics: ['API', 'API'], shoeSize: '42' },
      }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors!.map((e) => e.path).sort()).toEqual([
      'body.answers.company',
      'body.answers.role',
      'body.answers.shoeSize',
      'body.answers.topics',
    ]);
  });

  it('refuses a form whose choice question has no options', async () => {
    const event = await openEvent(gc);
    const err = await rejection(
      gc.registrations.updateSettings(event.id, {
        questions: [{ id: 'x', label: 'X', type: 'single_choice' }],
      }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
  });
});

describe('approval', () => {
  it('keeps a registration pending until a member approves it; pending, its link does not enter', async () => {
    const event = await eventWith({ requiresApproval: true });
    const p = person();
    const res = await anon.public.register(event.id, p);
    expect(res).toMatchObject({ registered: false, status: 'pending_approval' });
    const token = tokenOf(res.joinUrl!);
    expect(await rejection(anon.public.enter(event.id, { token }))).toMatchObject({
      status: 409,
      code: 'invalid_state',
    });
    const approved = await gc.registrations.approve(event.id, res.registrationId);
    expect(approved).toMatchObject({ status: 'registered' });
    expect(approved.approvedAt).not.toBeNull();
    await anon.public.enter(event.id, { token });
    await waitForEmail(t, p.email, /^You're in/);
    const facts = await registrationFacts(t.databaseUrl, event.id);
    expect(facts.map((f) => [f.type, f.payload.status, f.payload.change])).toEqual([
      ['registration.created', 'pending_approval', undefined],
      ['registration.updated', 'registered', 'approved'],
    ]);
  });

  it('answers 409 invalid_state when approving a registration that is not pending', async () => {
    const event = await openEvent(gc);
    const { registrationId } = await anon.public.register(event.id, person());
    const err = await rejection(gc.registrations.approve(event.id, registrationId));
    expect(err).toMatchObject({ status: 409, code: 'invalid_state' });
  });
});

describe('waitlist', () => {
  it('puts registrants past capacity on the waiting list and promotes the first when a seat frees', async () => {
    const event = await eventWith({ waitlist: true }, { capacity: 1 });
    const [a, b, c] = [person(), person(), person()];
    const ra = await anon.public.register(event.id, a);
    const rb = await anon.public.register(event.id, b);
    const rc = await anon.public.register(event.id, c);
    expect([ra.status, rb.status, rc.status]).toEqual(['registered', 'waitlisted', 'waitlisted']);
    expect((await gc.registrations.retrieve(event.id, rc.registrationId)).waitlistPosition).toBe(2);
    await anon.registrant.cancel(event.id, { token: tokenOf(ra.joinUrl!) });
    const promoted = await gc.registrations.retrieve(event.id, rb.registrationId);
    expect(promoted).toMatchObject({ status: 'registered', waitlistPosition: null });
    expect((await gc.registrations.retrieve(event.id, rc.registrationId)).waitlistPosition).toBe(1);
    const mail = await waitForEmail(t, b.email, /^You're in/);
    expect(mail.links[0]).toMatch(/enter\?token=gce_/);
  });

  it('seats the waiting list in order when the capacity is raised', async () => {
    const event = await eventWith({ waitlist: true }, { capacity: 1 });
    const regs = [];
    for (let i = 0; i < 4; i++) regs.push(await anon.public.register(event.id, person()));
    await gc.events.update(event.id, { capacity: 3 });
    const statuses = await Promise.all(
      regs.map(async (r) => (await gc.registrations.retrieve(event.id, r.registrationId)).status),
    );
    expect(statuses).toEqual(['registered', 'registered', 'registered', 'waitlisted']);
  });

  it('stays exact under concurrency: 80 registrations for 50 seats, then 10 cancellations at once', async () => {
    const event = await eventWith({ waitlist: true }, { capacity: 50 });
    const results = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        anon.public.register(event.id, { name: `Crowd ${i}`, email: `crowd${i}-${event.id}@example.test` }),
      ),
    );
    expect(results.filter((r) => r.status === 'registered')).toHaveLength(50);
    const waiting = await gc.registrations.list(event.id, { status: 'waitlisted' });
    expect(waiting.registrations.map((r) => r.waitlistPosition)).toEqual(
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    const seated = results.filter((r) => r.status === 'registered').slice(0, 10);
    await Promise.all(seated.map((r) => gc.registrations.cancel(event.id, r.registrationId)));
    const after = await withDb(t.databaseUrl, async (db) => ({
      counter: (await db.query('select registered_count from event where id = $1', [event.id])).rows[0]
        .registered_count,
      byStatus: Object.fromEntries(
        (
          await db.query(
            'select status, count(*)::int as n from registration where event_id = $1 group by status',
            [event.id],
          )
        ).rows.map((r) => [r.status, r.n]),
      ),
    }));
    expect(after).toEqual({ counter: 50, byStatus: { registered: 50, canceled: 10, waitlisted: 20 } });
    const promotedIds = new Set(waiting.registrations.slice(0, 10).map((r) => r.id));
    const nowSeated = await gc.registrations.list(event.id, { status: 'registered' });
    expect(nowSeated.registrations.filter((r) => promotedIds.has(r.id))).toHaveLength(10);
  });
});

describe('members manage registrants', () => {
  it('lists registrants oldest first, a page at a time, filtered by status', async () => {
    const event = await openEvent(gc);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await anon.public.register(event.id, person())).registrationId);
    await gc.registrations.cancel(event.id, ids[1]!);
    const first = await gc.registrations.list(event.id, { limit: 2 });
    expect(first.registrations.map((r) => r.id)).toEqual(ids.slice(0, 2));
    const all = [];
    for await (const r of gc.registrations.list(event.id, { limit: 2 })) all.push(r.id);
    expect(all).toEqual(ids);
    const canceled = await gc.registrations.list(event.id, { status: 'canceled' });
    expect(canceled.registrations.map((r) => r.id)).toEqual([ids[1]]);
  });

  it('exports registrants as CSV with a column per question, neutralizing formulas', async () => {
    const event = await eventWith({ questions });
    await anon.public.register(event.id, {
      name: '=HYPERLINK("x")',
      email: `csv-${event.id}@example.test`,
      answers: { company: 'A, "B"', topics: ['API', 'Live'] },
    });
    const text = (await gc.registrations.retrieveExport(event.id, {})) as unknown as string;
    const [header, row] = text.trim().split('\r\n');
    expect(header).toBe(
      'id,name,email,status,waitlist_position,created_at,approved_at,canceled_at,attended_at,Company,Role,Topics',
    );
    expect(row).toContain(`"'=HYPERLINK(""x"")",csv-${event.id}@example.test,registered`);
    expect(row).toContain('"A, ""B""",,API; Live');
  });

  it('cancels by member and emails a calendar cancellation; canceling again changes nothing', async () => {
    const event = await openEvent(gc, { scheduledAt: new Date(Date.now() + 7 * 86_400_000).toISOString() });
    const p = person();
    const { registrationId } = await anon.public.register(event.id, p);
    const canceled = await gc.registrations.cancel(event.id, registrationId);
    expect(canceled).toMatchObject({ status: 'canceled' });
    expect(await gc.registrations.cancel(event.id, registrationId)).toMatchObject({
      status: 'canceled',
    });
    const mail = await waitForEmail(t, p.email, /^Registration canceled/);
    expect(mail.attachments[0]!.content).toContain('METHOD:CANCEL');
    const facts = await registrationFacts(t.databaseUrl, event.id);
    expect(facts.map((f) => f.payload.change ?? f.type)).toEqual(['registration.created', 'canceled']);
  });

  it('refuses a cancellation with a token of another event with 400 invalid_token', async () => {
    const [e1, e2] = [await openEvent(gc), await openEvent(gc)];
    const r = await anon.public.register(e1.id, person());
    const err = await rejection(anon.registrant.cancel(e2.id, { token: tokenOf(r.joinUrl!) }));
    expect(err).toMatchObject({ status: 400, code: 'invalid_token' });
  });

  it('answers 404 for another workspace’s registration', async () => {
    const event = await openEvent(gc);
    const { registrationId } = await anon.public.register(event.id, person());
    const other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
    const err = await rejection(other.registrations.retrieve(event.id, registrationId));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
  });
});
