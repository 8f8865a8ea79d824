import { identityEntities } from '../identity/entities';
import { User } from '../people/entities';
import { webhookEntities } from '../webhooks/entities';
import { DomainEvent, IdempotencyRecord } from './shared-entities';

/** Every entity of the service; each domain appends its own list here. */
export const entities = [...identityEntities, User, IdempotencyRecord, DomainEvent, ...webhookEntities];
