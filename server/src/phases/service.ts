import { randomUUID } from 'node:crypto';
import type { Feature, Phase, PhaseInput } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockEvent } from '../events/locks';
import { type PhaseRow, phaseColumns, toPhase } from '../events/mapping';
import { sql } from '../db/sql';
import { notFound, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import { normalizeFeatures, timerSeconds, validateConfig } from './config';
import { ofWorkspace } from '../lib/tenancy';

/** Inserts one phase at `position` (the caller holds the event lock). */
export async function insertPhase(
  tx: EntityManager,
  eventId: string,
  position: number,
  input: PhaseInput,
): Promise<PhaseRow> {
  const config = validateConfig(input.modality, input.config);
  const rows = await sql<PhaseRow>(
    tx,
    `insert into phase (id, event_id, position, modality, feature_set, config)
     values (?, ?, ?, ?, ?, ?) returning ${phaseColumns}`,
    [
      randomUUID(),
      eventId,
      position,
      input.modality,
      JSON.stringify(normalizeFeatures(input.featureSet)),
      JSON.stringify(config),
    ],
  );
  return rows[0]!;
}

/** Appends a phase at the end of the agenda; allowed until the event ends. */
export async function appendPhase(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: PhaseInput,
): Promise<Phase> {
  return em.transactional(async (tx) => {
    const event = await lockEvent(tx, actor, eventId);
    if (event.status === 'ended') throw problem('invalid_state', 'Phases cannot be added to an ended event');
    const [{ next }] = await sql<{ next: number }>(
      tx,
      'select coalesce(max(position) + 1, 0)::int as next from phase where event_id = ?',
      [eventId],
    );
    const row = await insertPhase(tx, eventId, next!, input);
    await sql(tx, 'update event set updated_at = now() where id = ?', [eventId]);
    return toPhase(row);
  });
}

/** Locks the phase's event and returns both; another workspace's phase is not found. */
async function lockPhase(tx: EntityManager, actor: Actor, phaseId: string) {
  const owner = await sql<{ event_id: string }>(
    tx,
    'select p.event_id from phase p join event e on e.id = p.event_id where p.id = ? and e.workspace_id = ?',
    [phaseId, actor.workspaceId],
  );
  const event = await lockEvent(tx, actor, ofWorkspace(owner[0], 'Phase').event_id);
  const rows = await sql<PhaseRow>(tx, `select ${phaseColumns} from phase where id = ?`, [phaseId]);
  if (!rows[0]) throw notFound('Phase');
  return { event, phase: rows[0] };
}

export interface UpdatePhaseInput {
  config?: Record<string, unknown>;
  featureSet?: Feature[];
}

/**
 * Updates config and/or featureSet until the event ends. The config is merged key by key into the
 * stored one, then validated against the modality's schema. A running timer is changed only by extend.
 */
export async function updatePhase(
  em: EntityManager,
  actor: Actor,
  phaseId: string,
  input: UpdatePhaseInput,
): Promise<Phase> {
  return em.transactional(async (tx) => {
    const { event, phase } = await lockPhase(tx, actor, phaseId);
    if (event.status === 'ended')
      throw problem('invalid_state', 'Phases of an ended event cannot be changed');
    const config =
      input.config === undefined
        ? phase.config
        : validateConfig(phase.modality, { ...phase.config, ...input.config });
    const featureSet =
      input.featureSet === undefined ? phase.feature_set : normalizeFeatures(input.featureSet);
    const rows = await sql<PhaseRow>(
      tx,
      `update phase set config = ?, feature_set = ?, updated_at = now() where id = ? returning ${phaseColumns}`,
      [JSON.stringify(config), JSON.stringify(featureSet), phaseId],
    );
    return toPhase(rows[0]!);
  });
}

/**
 * Adds seconds to the active phase's timer. Only the active phase of a live event, only a phase
 * with a timer, and for breakouts only when `extendable`. A timer that already ran out restarts
 * from now.
 */
export async function extendPhase(
  em: EntityManager,
  actor: Actor,
  phaseId: string,
  seconds: number,
): Promise<Phase> {
  return em.transactional(async (tx) => {
    const { event, phase } = await lockPhase(tx, actor, phaseId);
    if (event.status !== 'live' || phase.status !== 'active') {
      throw problem('invalid_state', `Only the active phase can be extended; this phase is ${phase.status}`);
    }
    if (phase.modality === 'breakout' && phase.config.extendable !== true) {
      throw problem('invalid_state', 'This breakout is not extendable (config.extendable is false)');
    }
    if (phase.ends_at === null || timerSeconds(phase.modality, phase.config) === null) {
      throw problem('invalid_state', `This ${phase.modality} phase has no timer to extend`);
    }
    const rows = await sql<PhaseRow>(
      tx,
      `update phase set ends_at = greatest(ends_at, now()) + make_interval(secs => ?), updated_at = now()
       where id = ? returning ${phaseColumns}`,
      [seconds, phaseId],
    );
    return toPhase(rows[0]!);
  });
}
