import { LiveError } from './connection';
import type { Handler } from './deps';
import { observerGrant } from './media';
import { isTablePhase } from './tables';

/** A host looks into a breakout or rotation table: a hidden, subscribe-only seat in that table's room. */
export const observeTable: Handler<'table.observe'> = async (h, { table }) => {
  const phase = h.event.activePhase;
  if (!isTablePhase(phase)) throw new LiveError('invalid_state', 'No breakout or rotation phase is running');
  const tables = await h.deps.tables.count(phase);
  if (table > tables) throw new LiveError('not_found', `There are ${tables} tables`);
  const media = await observerGrant(h.deps.ctx.config, { ...h.conn.identity(), eventId: h.event.id }, table);
  h.conn.send({ type: 'table.assigned', table, room: media.room!, media });
};
