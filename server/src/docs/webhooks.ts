import { type WebhookEventType, webhookEventSchemas, webhookEventTypes } from '@gathercast/contract';
import type { z } from 'zod';
import { escapeHtml } from '../lib/html';

/** The webhook catalog: every type, when it fires, its fields (read from the contract's schemas) and an example. */

const when: Record<WebhookEventType, string> = {
  'event.published':
    'An event was published: it moved from `draft` to `scheduled` and can be registered for.',
  'event.started': 'An event went live; its first phase is active.',
  'event.ended':
    'A live event ended, by `end` or by advancing past its last phase (a canceled scheduled event fires `event.canceled` instead).',
  'participant.joined':
    'A person connected to the live gateway for the first time (second tabs and other processes fire nothing).',
  'participant.left': "A person's last live-gateway connection closed, or their process stopped answering.",
  'broadcast.live':
    'A broadcast went on air: the first start in a broadcast phase, or a resume after a pause.',
  'broadcast.paused': 'A live broadcast was paused.',
  'recording.ready': 'A recording was stored for an event.',
  'transcript.ready': 'A transcript, its summary and its table notes were stored.',
  'clip.ready': 'A clip of a recording was stored and can be shown.',
  'question.created': 'Someone asked a question in the Q&A of a live event.',
  'event.updated': 'An event was changed (`PATCH /v1/events/{id}`); `changedFields` names what changed.',
  'event.canceled':
    'A scheduled event was canceled with `end` before it started; registrants are emailed a calendar cancellation.',
  'event.deleted': 'An event was deleted with its phases, registrations and content.',
  'event.attendance_ready':
    'The attendance and engagement report of an ended event is ready (`GET /v1/events/{id}/attendance`).',
  'registration.created':
    'Someone registered; `status` says whether they hold a seat, wait for approval or are on the waiting list.',
  'registration.updated':
    'A registration changed: `approved`, `waitlisted` (approved at capacity), `promoted` from the waiting list, or `canceled`.',
  'participant.removed':
    'A host or your backend removed a participant from the live room (their sockets closed everywhere).',
  'participant.banned':
    'A host or your backend banned a participant from the live room for the rest of the event.',
};

const fieldNotes: Record<string, string> = {
  id: 'UUID of the notification; equals `x-gc-event-id`, the same on every retry. Dedupe on it.',
  type: 'The event type.',
  workspaceId: 'The workspace the event belongs to.',
  eventId: 'The live event it is about.',
  occurredAt: 'When it happened (ISO 8601).',
  sequence: 'Its number in the workspace’s sequence (1, 2, 3, … without gaps; 0 for test sends). A jump means a missed event: read it from `GET /v1/event-log`.',
  participantId: 'Stable per person in the event: `user:…`, `guest:…`, `entry:…` or `anon:…`.',
  userId: 'The workspace user, for signed-in participants only.',
  anonymous: 'True for signed-out viewers.',
  role: "The participant's role for the phase at that moment.",
  broadcastId: 'The broadcast; a new one per broadcast phase.',
  playbackUrl: 'HLS playlist of the stage, the same for the whole event.',
  assetId: 'The id of the stored recording, transcript or clip.',
  questionId: 'The question.',
  text: 'The question as asked.',
  changedFields: 'The event fields the update changed, as the API names them.',
  uniqueAttendees: 'People who were in the live room at least once.',
  peakConcurrent: 'Most people in the live room at one moment.',
  registrationId: 'The registration (`GET /v1/events/{eventId}/registrations/{registrationId}`).',
  status: 'The registration status after the change.',
  change: 'What happened to the registration.',
};

const sampleValues: Record<string, unknown> = {
  id: '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
  workspaceId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b',
  eventId: 'a3e1c5d7-9b2f-4e6a-8c1d-3f5b7a9c1e2d',
  occurredAt: '2026-11-22T10:00:00.000Z',
  sequence: 42,
  participantId: 'user:5d0c8e2a-7b3f-4a1e-9c6d-2b8f4e0a6c13',
  userId: '5d0c8e2a-7b3f-4a1e-9c6d-2b8f4e0a6c13',
  anonymous: false,
  role: 'participant',
  broadcastId: 'c8b2e4f6-1a3d-4c5e-9f7b-2d4f6a8c0e1b',
  playbackUrl: 'https://api.example.com/hls/evt_a3e1c5d7-9b2f-4e6a-8c1d-3f5b7a9c1e2d_stage/index.m3u8',
  assetId: 'e2f4a6c8-0b1d-4e3f-8a5c-7e9b1d3f5a7c',
  questionId: 'f1e3d5c7-b9a2-4c4e-8f6a-1b3d5f7a9c2e',
  text: 'When do the breakouts start?',
  changedFields: ['scheduledAt', 'scheduledEndAt'],
  uniqueAttendees: 412,
  peakConcurrent: 380,
  registrationId: 'd4f6a8c0-2b4d-4e6f-8a0c-4e6a8c0e2b4d',
  status: 'registered',
  change: 'promoted',
};

/** An example body of a type: the sample value of each of its fields, in the schema's order. */
export function webhookExample(type: WebhookEventType): Record<string, unknown> {
  const shape = (webhookEventSchemas[type] as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
  return Object.fromEntries(Object.keys(shape).map((k) => [k, k === 'type' ? type : sampleValues[k]]));
}

function typeName(schema: z.ZodTypeAny): { name: string; optional: boolean } {
  const def = schema._def as { typeName: string; innerType?: z.ZodTypeAny; values?: string[] };
  if (def.typeName === 'ZodOptional' && def.innerType)
    return { name: typeName(def.innerType).name, optional: true };
  const names: Record<string, string> = {
    ZodString: 'string',
    ZodBoolean: 'boolean',
    ZodNumber: 'number',
    ZodLiteral: 'string',
  };
  if (def.typeName === 'ZodEnum')
    return { name: (def.values ?? []).map((v) => `"${v}"`).join(' | '), optional: false };
  return { name: names[def.typeName] ?? 'value', optional: false };
}

const inline = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');
export const webhookAnchor = (type: string) => type.replace('.', '-');

export function webhookCatalogBody(): string {
  const index = webhookEventTypes
    .map((t) => `<a class="chip" href="#${webhookAnchor(t)}"><code>${t}</code></a>`)
    .join(' ');
  const sections = webhookEventTypes
    .map((type) => {
      const shape = (webhookEventSchemas[type] as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
      const own = Object.keys(shape).filter(
        (k) => !['id', 'type', 'workspaceId', 'eventId', 'occurredAt'].includes(k),
      );
      const rows = own
        .map((k) => {
          const t = typeName(shape[k] as z.ZodTypeAny);
          return `<tr><td><code>${k}</code>${t.optional ? ' <span class="muted">optional</span>' : ''}</td><td><code>${escapeHtml(t.name)}</code></td><td>${inline(fieldNotes[k] ?? '')}</td></tr>`;
        })
        .join('');
      const fields = own.length
        ? `<div class="table-wrap"><table><thead><tr><th>field</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table></div>`
        : '<p class="muted">Only the base fields.</p>';
      return `<section class="webhook" id="${webhookAnchor(type)}">
<h2><a class="anchor" href="#${webhookAnchor(type)}" aria-hidden="true">#</a><code>${type}</code></h2>
<p>${inline(when[type])}</p>
${fields}
<div class="code"><span class="code-lang">json</span><pre><code>${escapeHtml(JSON.stringify(webhookExample(type), null, 2))}</code></pre></div>
</section>`;
    })
    .join('\n');
  const base = ['id', 'type', 'workspaceId', 'eventId', 'occurredAt']
    .map((k) => `<tr><td><code>${k}</code></td><td>${inline(fieldNotes[k] ?? '')}</td></tr>`)
    .join('');
  return `<h1>Webhook catalog</h1>
<p class="lead">Gathercast POSTs signed JSON to your endpoints when something happens to an event. Every body is flat:
the base fields, then the fields of its type.</p>
<p>${index}</p>
<h2 id="base-fields">Base fields</h2>
<div class="table-wrap"><table><thead><tr><th>field</th><th>meaning</th></tr></thead><tbody>${base}</tbody></table></div>
<p>Each delivery carries <code>x-gc-signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code>, <code>x-gc-event-id</code> and
<code>x-gc-event-type</code>. Verify the signature against the raw body before you parse it: see
<a href="/docs/guides/webhooks">Webhooks</a> for signatures, retries and endpoint management, and the
<a href="/docs/guides/quickstart">quick start</a> to receive your first one.</p>
${sections}`;
}

export function webhookToc() {
  return [
    { depth: 2, id: 'base-fields', text: 'Base fields' },
    ...webhookEventTypes.map((t) => ({ depth: 2, id: webhookAnchor(t), text: t })),
  ];
}
