import { broadcastEntities } from '../broadcasts/entities';
import { contentEntities } from '../content/entities';
import { eventEntities } from '../events/entities';
import { gatewayEntities } from '../gateway/entities';
import { identityEntities } from '../identity/entities';
import { liveEntities } from '../live/entities';
import { peopleEntities } from '../people/entities';
import { registrationEntities } from '../public/entities';
import { webhookEntities } from '../webhooks/entities';
import { DomainEvent, IdempotencyRecord } from '../db/shared-entities';

/** Every entity of the service, handed to the ORM by the composition root; each domain appends its own list here. */
export const entities = [
  ...identityEntities,
  ...peopleEntities,
  IdempotencyRecord,
  DomainEvent,
  ...eventEntities,
  ...registrationEntities,
  ...webhookEntities,
  ...broadcastEntities,
  ...gatewayEntities,
  ...liveEntities,
  ...contentEntities,
];
