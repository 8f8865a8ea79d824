import { broadcastEntities } from '../broadcasts/entities';
import { contentEntities } from '../content/entities';
import { DomainEvent, IdempotencyRecord, ServiceKey, WorkspaceEventSeq } from '../db/shared-entities';
import { eventEntities } from '../events/entities';
import { gatewayEntities } from '../gateway/entities';
import { identityEntities } from '../identity/entities';
import { inviteEntities } from '../invites/entities';
import { liveEntities } from '../live/entities';
import { peopleEntities } from '../people/entities';
import { registrationEntities } from '../registrations/entities';
import { attendanceEntities } from '../attendance/entities';
import { webhookEntities } from '../webhooks/entities';

/** Every entity of the service, handed to the ORM by the composition root; each domain appends its own list here. */
export const entities = [
  ...identityEntities,
  ...peopleEntities,
  IdempotencyRecord,
  DomainEvent,
  WorkspaceEventSeq,
  ServiceKey,
  ...inviteEntities,
  ...eventEntities,
  ...registrationEntities,
  ...attendanceEntities,
  ...webhookEntities,
  ...broadcastEntities,
  ...gatewayEntities,
  ...liveEntities,
  ...contentEntities,
];
