import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './Migration20261122000000Foundation';
import { Migration20261122010000Events } from './Migration20261122010000Events';
import { Migration20261122020000Identity } from './Migration20261122020000Identity';
import { Migration20261122030000Webhooks } from './Migration20261122030000Webhooks';
import { Migration20261122040000CredentialChanges } from './Migration20261122040000CredentialChanges';
import { Migration20261122050000EventReferences } from './Migration20261122050000EventReferences';
import { Migration20261122060000DeliveryRetryRequests } from './Migration20261122060000DeliveryRetryRequests';
import { Migration20261122070000SigningKeys } from './Migration20261122070000SigningKeys';
import { Migration20261122080000GuestIntegrations } from './Migration20261122080000GuestIntegrations';
import { Migration20261122081000Broadcasts } from './Migration20261122081000Broadcasts';
import { Migration20261122082000Content } from './Migration20261122082000Content';
import { Migration20261122083000LivePlane } from './Migration20261122083000LivePlane';
import { Migration20261124200000LiveHistory } from './Migration20261124200000LiveHistory';
import { Migration20261124201000WebhookFairness } from './Migration20261124201000WebhookFairness';
import { Migration20261128010000LiveRoleChanges } from './Migration20261128010000LiveRoleChanges';
import { Migration20261128030000AudienceRecords } from './Migration20261128030000AudienceRecords';
import { Migration20261128040000LiveControl } from './Migration20261128040000LiveControl';
import { Migration20261128050000Registrants } from './Migration20261128050000Registrants';
import { Migration20261128060000ApiKeyScopes } from './Migration20261128060000ApiKeyScopes';
import { Migration20261128061000EventLog } from './Migration20261128061000EventLog';
import { Migration20261128070000LiveLastLine } from './Migration20261128070000LiveLastLine';
import { Migration20261128090000LiveClientAddress } from './Migration20261128090000LiveClientAddress';

/** Listed explicitly (not discovered from disk) so the bundled server carries them. Append in order. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122010000Events', class: Migration20261122010000Events },
  { name: 'Migration20261122020000Identity', class: Migration20261122020000Identity },
  { name: 'Migration20261122030000Webhooks', class: Migration20261122030000Webhooks },
  { name: 'Migration20261122040000CredentialChanges', class: Migration20261122040000CredentialChanges },
  { name: 'Migration20261122050000EventReferences', class: Migration20261122050000EventReferences },
  {
    name: 'Migration20261122060000DeliveryRetryRequests',
    class: Migration20261122060000DeliveryRetryRequests,
  },
  { name: 'Migration20261122070000SigningKeys', class: Migration20261122070000SigningKeys },
  { name: 'Migration20261122080000GuestIntegrations', class: Migration20261122080000GuestIntegrations },
  { name: 'Migration20261122081000Broadcasts', class: Migration20261122081000Broadcasts },
  { name: 'Migration20261122082000Content', class: Migration20261122082000Content },
  { name: 'Migration20261122083000LivePlane', class: Migration20261122083000LivePlane },
  { name: 'Migration20261124200000LiveHistory', class: Migration20261124200000LiveHistory },
  { name: 'Migration20261124201000WebhookFairness', class: Migration20261124201000WebhookFairness },
  { name: 'Migration20261128010000LiveRoleChanges', class: Migration20261128010000LiveRoleChanges },
  { name: 'Migration20261128030000AudienceRecords', class: Migration20261128030000AudienceRecords },
  { name: 'Migration20261128040000LiveControl', class: Migration20261128040000LiveControl },
  { name: 'Migration20261128050000Registrants', class: Migration20261128050000Registrants },
  { name: 'Migration20261128060000ApiKeyScopes', class: Migration20261128060000ApiKeyScopes },
  { name: 'Migration20261128061000EventLog', class: Migration20261128061000EventLog },
  { name: 'Migration20261128070000LiveLastLine', class: Migration20261128070000LiveLastLine },
  { name: 'Migration20261128090000LiveClientAddress', class: Migration20261128090000LiveClientAddress },
];
