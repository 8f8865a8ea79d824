import { createHash } from 'node:crypto';

/**
 * Examples for the OpenAPI document. Request bodies of the common calls are written out by hand; every
 * other example is built from its schema, with realistic values chosen by field name (an `email` looks
 * like an email, a `slug` like a slug, ids are stable UUIDs), so each example validates against its schema
 * (the lint checks that) and reads like a real answer.
 */

type Json = Record<string, unknown>;

/** Request bodies of the calls a newcomer makes first, by operationId. */
export const requestExamples: Record<string, unknown> = {
  'accounts.signup': { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace' },
  'accounts.login': { email: 'ada@example.com', password: 'correct horse battery' },
  'accounts.requestPasswordReset': { email: 'ada@example.com' },
  'workspaces.create': { name: 'Acme Events', slug: 'acme-events' },
  'workspaces.update': { name: 'Acme Live' },
  'apiKeys.create': { name: 'backend production' },
  'apiKeys.createWithKey': { name: 'backend rotation 2026-12' },
  'invites.create': { kind: 'workspace', email: 'grace@example.com', role: 'admin' },
  'events.create': {
    type: 'webinar',
    title: 'Quarterly product update',
    scheduledAt: '2026-12-01T17:00:00.000Z',
    scheduledEndAt: '2026-12-01T18:00:00.000Z',
    visibility: 'public',
    capacity: 500,
    metadata: { crmCampaign: 'q4-launch' },
    phases: [
      { modality: 'broadcast', featureSet: ['qa', 'chat', 'reactions'] },
      {
        modality: 'breakout',
        config: { roomSize: 4, durationSeconds: 900, extendable: true },
        featureSet: ['chat'],
      },
    ],
  },
  'events.update': { title: 'Quarterly product update (EMEA)', capacity: 750 },
  'phases.append': { modality: 'meeting', featureSet: ['qa', 'chat'] },
  'phases.extend': { seconds: 300 },
  'users.upsert': { externalSub: 'crm|48213', name: 'Grace Hopper', email: 'grace@example.com' },
  'memberships.create': { userId: 'a4b6c8d0-2e4f-4a6b-8c0d-1e3f5a7b9c2d', role: 'speaker' },
  'webhooks.create': {
    url: 'https://hooks.example.com/gathercast',
    eventTypes: ['event.started', 'event.ended'],
  },
  'webhooks.update': { enabled: false },
  'public.register': {
    name: 'Alan Turing',
    email: 'alan@example.com',
    answers: { company: 'Acme', role: 'Engineer', topics: ['API', 'Live'] },
  },
  'registrations.updateSettings': {
    questions: [
      { id: 'company', label: 'Company', type: 'text', required: true },
      { id: 'role', label: 'Your role', type: 'single_choice', options: ['Engineer', 'Manager'] },
      { id: 'topics', label: 'Topics', type: 'multiple_choice', options: ['API', 'Live', 'Reports'] },
    ],
    requiresApproval: false,
    waitlist: true,
    reminderMinutesBefore: [1440, 60],
  },
  'registrant.cancel': { token: 'gce_4Rt8Wy1Bn5Cd3Fg6Hj0Ks2AaZz4Ee6Ii8Oo7Qm2Vx9Lp' },
  'public.helpChat': { messages: [{ role: 'user', text: 'How do I add a breakout phase?' }] },
};

/** Values by field name (or `<Schema>.<field>` for one schema), used whenever the schema admits them. */
const byField: Record<string, unknown> = {
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  'Workspace.name': 'Acme Events',
  'AccountWorkspace.name': 'Acme Events',
  'ApiKey.name': 'backend production',
  'ApiKeyWithSecret.name': 'backend production',
  'GuestIntegration.name': 'Partner portal',
  slug: 'acme-events',
  title: 'Quarterly product update',
  type: 'webinar',
  text: 'Will the slides be shared after the event?',
  detail: 'Cannot start an event that is draft; start needs scheduled',
  url: 'https://hooks.example.com/gathercast',
  playbackUrl: 'https://api.example.com/hls/3c8a1e5f-7b2d-4a9c-b6e0-1d2f3a4b5c6d/index.m3u8',
  verifyUrl: 'http://localhost:3000/verify?token=gcv_2hX9kQ7mR4tW8yB1nC5vD3fG6jL0pS2a',
  'Invite.url': 'http://localhost:3000/invites/gci_5Tn8Wq2Zc4Vb7Xm1Lk3Jh6Gf9Ds0Ap2Ee4Rr6Yy8Uu',
  'Invite.role': 'admin',
  'Invite.email': 'grace@example.com',
  scheduledAt: '2026-12-01T17:00:00.000Z',
  scheduledEndAt: '2026-12-01T18:00:00.000Z',
  'ApiKeyWithSecret.secret': 'gck_7Qm2Vx9Lp4Rt8Wy1Bn5Cd3Fg6Hj0Ks2AaZz4Ee6Ii8Oo',
  'WebhookEndpointWithSecret.secret': 'whsec_3Fh8Kq1Mv6Rx9Tz2Bc5Dg7Jl0Np4Sw8Ya1Ee3Ii5Oo',
  secret: 'gck_7Qm2Vx9Lp4Rt8Wy1Bn5Cd3Fg6Hj0Ks2AaZz4Ee6Ii8Oo',
  sessionToken: 'gcs_9Ld4Pq7Tv2Xz5Bc8Fg1Hk3Mn6Rs0Wy4AaCc7Ee2Gg9Ii',
  token: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImdjLTIwMjYtMTEifQ.eyJzdWIiOiJwXzdlMWQzYyJ9.c2lnbmF0dXJl',
  reply:
    'Add a phase with modality "breakout" (POST /v1/events/{id}/phases); set config.roomSize for table size.',
  nextCursor: null,
  capacity: 500,
  seconds: 300,
  durationMs: 184,
  responseStatus: 200,
  position: 0,
  roomSize: 4,
  durationSeconds: 900,
  votes: 12,
  eventTypes: ['event.started', 'event.ended'],
  featureSet: ['qa', 'chat', 'reactions'],
  metadata: { crmCampaign: 'q4-launch' },
  config: {},
  role: 'host',
  'Member.role': 'admin',
  'AccountWorkspace.role': 'owner',
  enabled: true,
  verified: true,
  emailVerified: true,
  primary: true,
  anonymous: false,
  timezone: 'Europe/Paris',
  joinUrl:
    'https://gathercast.example.com/events/3c8a1e5f-7b2d-4a9c-b6e0-1d2f3a4b5c6d/enter?token=gce_4Rt8Wy1Bn5Cd3Fg6Hj0Ks2AaZz4Ee6Ii8Oo7Qm2Vx9Lp',
  calendarUrl:
    'https://gathercast.example.com/v1/public/registrations/d4f6a8c0-2b4d-4e6f-8a0c-4e6a8c0e2b4d/calendar.ics',
  answers: { company: 'Acme', role: 'Engineer', topics: ['API', 'Live'] },
  reminderMinutesBefore: [1440, 60],
  participantId: 'entry:d4f6a8c0-2b4d-4e6f-8a0c-4e6a8c0e2b4d',
};

const timestampExample = '2026-11-24T18:30:00.000Z';

/** A stable UUID per field name, so the same id reads the same across examples. */
function uuidFor(field: string): string {
  const h = createHash('sha256').update(field).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export class ExampleBuilder {
  constructor(private readonly components: Record<string, Json>) {}

  /** An example of `schema`; `requiredOnly` leaves optional fields out (for request bodies). */
  of(schema: unknown, requiredOnly = false): unknown {
    return this.build(schema, { field: '', owner: '', requiredOnly, depth: 0 });
  }

  private build(
    schema: unknown,
    at: { field: string; owner: string; requiredOnly: boolean; depth: number },
  ): unknown {
    const s = (schema ?? {}) as Json;
    if (at.depth > 12) return null;
    const next = { ...at, depth: at.depth + 1 };
    if (typeof s.$ref === 'string') {
      const name = s.$ref.split('/').pop()!;
      return this.build(this.components[name], { ...next, owner: name });
    }
    const alternatives = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (alternatives) {
      const first = alternatives.find((a) => a.type !== 'null') ?? alternatives[0];
      return this.build(first, next);
    }
    if (Array.isArray(s.allOf)) {
      return Object.assign({}, ...(s.allOf as Json[]).map((part) => this.build(part, next) as Json));
    }
    const hint = this.hint(at);
    if (hint !== undefined && admits(s, hint)) return hint;
    // A nullable timestamp without a hint reads as "not yet" (a new event has not started).
    if (Array.isArray(s.type) && s.type.includes('null') && at.field.endsWith('At')) return null;
    if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? s.enum[0];
    const type = Array.isArray(s.type)
      ? (s.type as string[]).find((t) => t !== 'null')
      : (s.type as string | undefined);
    switch (type) {
      case 'object': {
        const properties = (s.properties ?? {}) as Record<string, unknown>;
        const required = new Set((s.required ?? []) as string[]);
        const out: Json = {};
        for (const [field, sub] of Object.entries(properties)) {
          if (at.requiredOnly && !required.has(field)) continue;
          out[field] = this.build(sub, { ...next, field });
        }
        return out;
      }
      case 'array': {
        const item = this.build(s.items, { ...next, field: singular(at.field) });
        return typeof s.maxItems === 'number' && s.maxItems === 0 ? [] : [item];
      }
      case 'string':
        if (s.format === 'uuid') return uuidFor(idOf(at.field, at.owner));
        if (s.format === 'date-time') return timestampExample;
        if (s.format === 'email') return 'ada@example.com';
        if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
        return typeof s.minLength === 'number' && s.minLength > 6 ? 'x'.repeat(s.minLength) : 'example';
      case 'integer':
      case 'number':
        return typeof s.minimum === 'number' ? s.minimum : 1;
      case 'boolean':
        return false;
      default:
        return undefined;
    }
  }

  private hint(at: { field: string; owner: string }): unknown {
    if (!at.field) return undefined;
    const owned = byField[`${at.owner}.${at.field}`];
    if (owned !== undefined) return owned;
    return byField[at.field];
  }
}

/** `id` of an `Event` and `eventId` anywhere are the same UUID, so examples link up. */
function idOf(field: string, owner: string): string {
  if (field === 'id' || field === '') return `${(owner || 'Resource').replace(/With\w+$/, '')}.id`;
  const m = /^(\w+)Id$/.exec(field);
  return m ? `${m[1]![0]!.toUpperCase()}${m[1]!.slice(1)}.id` : field;
}

const singular = (field: string) => (field.endsWith('s') ? field.slice(0, -1) : field);

/** Whether a hinted value fits the schema's type, enum and bounds (else the schema decides). */
function admits(s: Json, value: unknown): boolean {
  if (Array.isArray(s.enum)) return s.enum.includes(value);
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const fits = types.some(
    (t) =>
      t === actual || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && actual === 'number'),
  );
  if (!fits) return false;
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) return false;
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) return false;
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value)) return false;
    if (s.format === 'uuid') return false;
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return false;
    if (typeof s.maximum === 'number' && value > s.maximum) return false;
  }
  if (Array.isArray(value) && s.items && Array.isArray((s.items as Json).enum)) {
    return value.every((v) => ((s.items as Json).enum as unknown[]).includes(v));
  }
  return true;
}
