import { identityEntities } from '../identity/entities';
import { IdempotencyRecord, DomainEvent } from './shared-entities';

/** Every entity of the service; each domain appends its own list here. */
export const entities = [...identityEntities, IdempotencyRecord, DomainEvent];
