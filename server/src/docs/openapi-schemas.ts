import { generateSchema } from '@anatine/zod-openapi';
import * as c from '@gathercast/contract';
import type { ZodTypeAny } from 'zod';

/**
 * Named component schemas and the move from ts-rest's OpenAPI 3.0 output to 3.1. ts-rest inlines every
 * schema; here each resource the contract names (`eventSchema` → `Event`) is generated the same way and
 * every identical inline copy in the document is replaced by a `$ref`, so generated clients get one
 * reusable type per resource.
 */

type Json = Record<string, unknown>;

/** Resources, as responses render them. */
const outputSchemas: Record<string, ZodTypeAny> = {
  Account: c.accountSchema,
  AccountEmail: c.accountEmailSchema,
  AccountWorkspace: c.accountWorkspaceSchema,
  AccountSession: c.accountSessionSchema,
  Workspace: c.workspaceSchema,
  ApiKey: c.apiKeySchema,
  ApiKeyWithSecret: c.apiKeyWithSecretSchema,
  Member: c.memberSchema,
  ParticipantIdentity: c.participantIdentitySchema,
  Invite: c.inviteSchema,
  Event: c.eventSchema,
  EventWithPhases: c.eventWithPhasesSchema,
  Phase: c.phaseSchema,
  User: c.userSchema,
  Membership: c.membershipSchema,
  Question: c.questionSchema,
  WebhookEndpoint: c.webhookEndpointSchema,
  WebhookEndpointWithSecret: c.webhookEndpointWithSecretSchema,
  WebhookDelivery: c.deliverySchema,
  WebhookDeliveryAttempt: c.deliveryAttemptSchema,
  GuestIntegration: c.guestIntegrationSchema,
  Recording: c.recordingSchema,
  Transcript: c.transcriptSchema,
  TranscriptSegment: c.transcriptSegmentSchema,
  Clip: c.clipSchema,
  PublicEvent: c.publicEventSchema,
  Summary: c.summarySchema,
  SpeakerStat: c.speakerStatSchema,
  TableNotes: c.tableNotesSchema,
};

/** Request parts, as request bodies read them. */
const inputSchemas: Record<string, ZodTypeAny> = {
  PhaseInput: c.phaseInputSchema,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Generates the named schemas, swaps every inline copy in `doc` for a `$ref`, and returns them. */
export function extractNamedSchemas(doc: Json): Record<string, Json> {
  const named = [
    ...Object.entries(outputSchemas).map(([name, schema]) => [name, generateSchema(schema, true) as Json] as const),
    ...Object.entries(inputSchemas).map(([name, schema]) => [name, defaultsOptional(generateSchema(schema, false)) as Json] as const),
  ];
  // Largest first, so a resource that contains another (EventWithPhases ⊃ Phase) is matched whole.
  named.sort(([, a], [, b]) => JSON.stringify(b).length - JSON.stringify(a).length);
  const components: Record<string, Json> = {};
  for (const [name, schema] of named) {
    const key = JSON.stringify(schema);
    replaceCopies(doc.paths, key, name);
    for (const other of Object.values(components)) replaceCopies(other, key, name, true);
    components[name] = schema;
  }
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => a.localeCompare(b)));
}

/** Replaces each subtree equal to `key` (ignoring a `description` or `nullable` beside it) with a reference. */
function replaceCopies(node: unknown, key: string, name: string, skipRoot = false): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      node[i] = replaceCopies(item, key, name);
    });
    return node;
  }
  const obj = node as Json;
  if (!skipRoot) {
    const { description, nullable, ...rest } = obj;
    if (JSON.stringify(rest) === key) {
      const reference = nullable ? { anyOf: [ref(name), { type: 'null' }] } : ref(name);
      return description ? { ...reference, description } : reference;
    }
  }
  for (const [k, v] of Object.entries(obj)) obj[k] = replaceCopies(v, key, name);
  return obj;
}

/**
 * OpenAPI 3.0 → 3.1 in schemas: `nullable: true` becomes a `null` type (or an `anyOf` with `null` beside a
 * reference or a union); `z.unknown()`'s untyped `nullable` is dropped (any value already admits null).
 */
export function toJsonSchemaNulls(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(toJsonSchemaNulls);
  const obj = node as Json;
  for (const [k, v] of Object.entries(obj)) obj[k] = toJsonSchemaNulls(v);
  if (obj.nullable !== true) return obj;
  const { nullable: _, ...rest } = obj;
  if (typeof rest.type === 'string') {
    const nullableTyped: Json = { ...rest, type: [rest.type, 'null'] };
    if (Array.isArray(rest.enum)) nullableTyped.enum = [...rest.enum, null];
    return nullableTyped;
  }
  if (rest.$ref || rest.allOf || rest.oneOf || rest.anyOf) {
    const { description, ...schema } = rest;
    return { anyOf: [schema, { type: 'null' }], ...(description ? { description } : {}) };
  }
  return rest;
}

/**
 * In request bodies a field with a default may be left out (the server fills it in), but the generator
 * lists it as required: drop such fields from `required`.
 */
export function defaultsOptional<T>(node: T): T {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) {
    for (const item of node) defaultsOptional(item);
    return node;
  }
  const obj = node as Json;
  for (const value of Object.values(obj)) defaultsOptional(value);
  const properties = obj.properties as Record<string, Json> | undefined;
  if (properties && Array.isArray(obj.required)) {
    const required = (obj.required as string[]).filter((field) => properties[field]?.default === undefined);
    if (required.length) obj.required = required;
    else delete obj.required;
  }
  return node;
}
