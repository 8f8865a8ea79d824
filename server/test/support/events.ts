import type { phaseInputSchema } from '@gathercast/contract';
import type { GathercastClient } from '@gathercast/sdk';
import type { z } from 'zod';
import { withDb } from './fixtures';

export type Status = 'draft' | 'scheduled' | 'live' | 'ended';

/** An event driven through the lifecycle to the given status. */
export async function eventIn(
  gc: GathercastClient,
  status: Status,
  phases: z.input<typeof phaseInputSchema>[] = [{ modality: 'broadcast' }],
  extra = {},
) {
  const event = await gc.events.create({ type: 'webinar', title: `In ${status}`, phases, ...extra });
  if (status === 'draft') return event;
  await gc.events.publish(event.id);
  if (status === 'scheduled') return event;
  await gc.events.start(event.id);
  if (status === 'live') return event;
  await gc.events.end(event.id);
  return event;
}

/** The domain events recorded for an event, oldest first. */
export const domainEventsOf = (databaseUrl: string, eventId: string) =>
  withDb(databaseUrl, async (db) => {
    const res = await db.query(
      'select type, workspace_id, occurred_at from domain_event where event_id = $1 order by occurred_at, type',
      [eventId],
    );
    return res.rows as { type: string; workspace_id: string; occurred_at: Date }[];
  });

/** Expects the promise to fail and returns the GathercastError. */
export async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as {
      status: number;
      code: string;
      detail: string;
      errors?: { path: string }[];
      body: Record<string, unknown>;
    };
  }
  throw new Error('expected the call to fail');
}
