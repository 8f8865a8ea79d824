// Realistic 1 KiB webhook bodies (question.created with a long text), all distinct.
import { randomUUID } from 'node:crypto';

export const PAYLOAD_BYTES = 1024;

function onePayload(index) {
  const event = {
    id: randomUUID(),
    type: 'question.created',
    workspaceId: 'ws_7Hq2b9XkLm',
    eventId: 'evt_91LkQ3zr8P',
    occurredAt: new Date(1_700_000_000_000 + index * 1000).toISOString(),
    questionId: `q_${index}`,
    text: '',
  };
  const filler = 'Could you share the slides and the recording of the keynote afterwards? ';
  const room = PAYLOAD_BYTES - Buffer.byteLength(JSON.stringify(event));
  event.text = filler.repeat(Math.ceil(room / filler.length)).slice(0, room);
  const body = JSON.stringify(event);
  if (Buffer.byteLength(body) !== PAYLOAD_BYTES)
    throw new Error(`payload is ${Buffer.byteLength(body)} bytes`);
  return { id: event.id, body, bytes: Buffer.from(body) };
}

export function makePayloads(count) {
  return Array.from({ length: count }, (_, i) => onePayload(i));
}
