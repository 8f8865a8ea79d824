import type { GathercastClient } from '@gathercast/sdk';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { domainEventsOf, rejection } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { startReplica } from './support/live';
import { openEvent, person, waitForEmail } from './support/registrants';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace({ SCHEDULED_JOBS_INTERVAL_MS: '100' }, (started) => {
  ({ t, gc, anon } = started);
});

/** Whole seconds: calendar times carry no milliseconds. */
const inDays = (days: number) =>
  new Date(Math.floor(Date.now() / 1000) * 1000 + days * 86_400_000).toISOString();
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

/** The VEVENT of an iCalendar text, read by ical.js, with the calendar's METHOD. */
function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    method: calendar.getFirstPropertyValue('method'),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    summary: event.summary,
    status: vevent.getFirstPropertyValue('status'),
    attendee: vevent.getFirstPropertyValue('attendee'),
  };
}

const publicIcs = async (registrationId: string) =>
  (await anon.registrant.retrieveCalendar(registrationId)) as unknown as string;

describe('calendar invites', () => {
  it('attaches an invite to the confirmation and serves the same entry publicly', async () => {
    const scheduledAt = inDays(7);
    const event = await openEvent(gc, {
      scheduledAt,
      title: 'Launch; part 1, "live"',
      timezone: 'Europe/Paris',
    });
    const p = person('ics');
    const { registrationId } = await anon.public.register(event.id, p);
    const mail = await waitForEmail(t, p.email, /^You're registered/);
    expect(mail.text).toContain('(Europe/Paris)');
    const invite = parse(mail.attachments[0]!.content);
    expect(invite).toMatchObject({
      method: 'REQUEST',
      uid: `registration-${registrationId}@gathercast`,
      sequence: 0,
      start: scheduledAt,
      summary: 'Launch; part 1, "live"',
      status: 'CONFIRMED',
      attendee: `mailto:${p.email}`,
    });
    expect(parse(await publicIcs(registrationId))).toMatchObject({
      method: 'PUBLISH',
      uid: invite.uid,
      sequence: 0,
    });
  });

  it('raises SEQUENCE on a reschedule and emails the updated invite under the same UID', async () => {
    const event = await openEvent(gc, { scheduledAt: inDays(7) });
    const p = person('resched');
    const { registrationId } = await anon.public.register(event.id, p);
    const moved = inDays(8);
    await gc.events.update(event.id, { scheduledAt: moved });
    const mail = await waitForEmail(t, p.email, /^Updated/);
    expect(parse(mail.attachments[0]!.content)).toMatchObject({
      uid: `registration-${registrationId}@gathercast`,
      sequence: 1,
      start: moved,
    });
    expect(mail.links[0]).toMatch(/enter\?token=gce_/);
    expect(parse(await publicIcs(registrationId))).toMatchObject({ sequence: 1, start: moved });
  });

  it('sends METHOD:CANCEL with a higher SEQUENCE when a registration is canceled', async () => {
    const event = await openEvent(gc, { scheduledAt: inDays(7) });
    const { registrationId } = await anon.public.register(event.id, person('cx'));
    await gc.registrations.cancel(event.id, registrationId);
    expect(parse(await publicIcs(registrationId))).toMatchObject({
      method: 'CANCEL',
      status: 'CANCELLED',
      sequence: 1,
    });
  });

  it('answers 409 invalid_state for the calendar of an event without a start time', async () => {
    const event = await openEvent(gc);
    const { registrationId } = await anon.public.register(event.id, person());
    expect(await rejection(anon.registrant.retrieveCalendar(registrationId))).toMatchObject({
      status: 409,
      code: 'invalid_state',
    });
  });
});

describe('event lifecycle webhooks and time zone', () => {
  it('fires event.updated with only the fields that changed, and nothing for a no-op', async () => {
    const event = await openEvent(gc, { title: 'Same' });
    await gc.events.update(event.id, { title: 'Same' });
    await gc.events.update(event.id, { title: 'New', capacity: 10, timezone: 'Asia/Tokyo' });
    const rows = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(`select payload from domain_event where event_id = $1 and type = 'event.updated'`, [
            event.id,
          ])
        ).rows,
    );
    expect(rows.map((r) => r.payload.changedFields)).toEqual([['title', 'timezone', 'capacity']]);
  });

  it('refuses an unknown time zone with 400', async () => {
    const err = await rejection(gc.events.create({ type: 'webinar', title: 'X', timezone: 'Mars/Olympus' }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors!.map((e) => e.path)).toEqual(['body.timezone']);
  });

  it('cancels a scheduled event: event.canceled, not event.ended, and registrants get a cancellation', async () => {
    const event = await openEvent(gc, { scheduledAt: inDays(3) });
    const p = person('evcancel');
    const { registrationId } = await anon.public.register(event.id, p);
    const ended = await gc.events.end(event.id);
    expect(ended.canceledAt).not.toBeNull();
    const types = (await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type);
    expect(types).toContain('event.canceled');
    expect(types).not.toContain('event.ended');
    const mail = await waitForEmail(t, p.email, /^Canceled/);
    expect(parse(mail.attachments[0]!.content)).toMatchObject({ method: 'CANCEL', sequence: 1 });
    expect(parse(await publicIcs(registrationId))).toMatchObject({ method: 'CANCEL' });
  });

  it('fires event.ended (not event.canceled) when a live event ends', async () => {
    const event = await openEvent(gc);
    await gc.events.start(event.id);
    const ended = await gc.events.end(event.id);
    expect(ended.canceledAt).toBeNull();
    const types = (await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type);
    expect(types).toContain('event.ended');
    expect(types).not.toContain('event.canceled');
  });

  it('fires event.deleted when an event is deleted', async () => {
    const event = await openEvent(gc);
    await gc.events.delete(event.id);
    expect((await domainEventsOf(t.databaseUrl, event.id)).map((e) => e.type)).toContain('event.deleted');
  });
});

describe('reminders', () => {
  let b: RunningServer;
  beforeAll(async () => {
    b = await startReplica(t.databaseUrl, { SCHEDULED_JOBS_INTERVAL_MS: '100' });
  });
  afterAll(() => b.close());

  /** Reminder emails to `to` that either process sent. */
  const remindersTo = (to: string) =>
    [...t.server.ctx.emails.mailbox(to), ...b.ctx.emails.mailbox(to)].filter((e) =>
      e.subject.startsWith('Reminder'),
    );

  it('emails each registrant with a seat once, across two processes, and skips canceled ones', async () => {
    const event = await openEvent(gc, { scheduledAt: inDays(2) });
    await gc.registrations.updateSettings(event.id, { reminderMinutesBefore: [1440, 60] });
    const seated = [person('rem'), person('rem')];
    const gone = person('rem');
    for (const p of seated) await anon.public.register(event.id, p);
    const { registrationId } = await anon.public.register(event.id, gone);
    await gc.registrations.cancel(event.id, registrationId);
    // 30 minutes ahead: both reminders are due; only the nearest one is emailed.
    await gc.events.update(event.id, { scheduledAt: inMinutes(30) });
    // A later event's reminder is a marker: the jobs take the emails oldest first.
    const marker = await openEvent(gc, { scheduledAt: inDays(2) });
    const m = person('marker');
    await anon.public.register(marker.id, m);
    await gc.events.update(marker.id, { scheduledAt: inMinutes(20) });
    // Two processes take jobs side by side, so the marker may land before the others: wait for all.
    await expect
      .poll(() => [m, ...seated].every((p) => remindersTo(p.email).length > 0), { timeout: 15_000 })
      .toBe(true);
    expect(remindersTo(m.email)).toHaveLength(1);
    for (const p of seated) {
      const sent = remindersTo(p.email);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toMatch(/starts in 30 minutes/);
      expect(sent[0]!.links[0]).toMatch(/enter\?token=gce_/);
    }
    expect(remindersTo(gone.email)).toHaveLength(0);
  });

  it('does not email a reminder again after a restart', async () => {
    const event = await openEvent(gc, { scheduledAt: inDays(2) });
    const p = person('restart');
    await anon.public.register(event.id, p);
    await gc.events.update(event.id, { scheduledAt: inMinutes(50) });
    await expect.poll(() => remindersTo(p.email).length, { timeout: 15_000 }).toBe(1);
    const fromOldReplica = b.ctx.emails
      .mailbox(p.email)
      .filter((e) => e.subject.startsWith('Reminder')).length;
    await b.close();
    b = await startReplica(t.databaseUrl, { SCHEDULED_JOBS_INTERVAL_MS: '100' });
    const marker = await openEvent(gc, { scheduledAt: inDays(2) });
    const m = person('marker');
    await anon.public.register(marker.id, m);
    await gc.events.update(marker.id, { scheduledAt: inMinutes(40) });
    await expect.poll(() => remindersTo(m.email).length, { timeout: 15_000 }).toBe(1);
    expect(remindersTo(p.email).length + fromOldReplica).toBe(1);
    const runs = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(
            'select minutes_before from registration_reminder_run where event_id = $1 order by 1',
            [event.id],
          )
        ).rows,
    );
    expect(runs.map((r) => r.minutes_before)).toEqual([60, 1440]);
  });
});
