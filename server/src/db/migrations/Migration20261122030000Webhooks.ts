import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints, their deliveries (one per endpoint and domain event) and the attempt log.
 * The job queue itself (graphile_worker schema) is installed and migrated by graphile-worker.
 */
export class Migration20261122030000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoint (
        id uuid primary key,
        workspace_id uuid not null references workspace(id) on delete cascade,
        url text not null,
        event_types jsonb not null default '[]',
        -- The signing secret must be usable for HMAC, so it is kept (never returned after creation).
        secret text not null,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        enabled boolean not null default true,
        disabled_reason text check (disabled_reason in ('manual', 'failing', 'gone')),
        -- Start of the current run of failed attempts; null after any success.
        failing_since timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index webhook_endpoint_workspace_idx on webhook_endpoint(workspace_id, created_at);

      create table webhook_delivery (
        id uuid primary key,
        endpoint_id uuid not null references webhook_endpoint(id) on delete cascade,
        workspace_id uuid not null,
        -- The webhook event id (body id, x-gc-event-id): the same for every attempt and endpoint.
        webhook_event_id uuid not null,
        event_type text not null,
        -- The exact JSON body, fixed when the delivery is created.
        body text not null,
        status text not null default 'pending'
          check (status in ('pending', 'succeeded', 'failed', 'rejected', 'cancelled')),
        attempt_count integer not null default 0,
        -- false after a manual retry: that attempt's outcome is final.
        auto_retry boolean not null default true,
        next_attempt_at timestamptz,
        -- Set while an attempt is in flight; an expired lease means the attempting process died.
        lease_until timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );
      create index webhook_delivery_endpoint_idx on webhook_delivery(endpoint_id, created_at desc, id desc);
      create index webhook_delivery_pending_idx on webhook_delivery(next_attempt_at) where status = 'pending';

      create table webhook_attempt (
        id uuid primary key,
        delivery_id uuid not null references webhook_delivery(id) on delete cascade,
        attempted_at timestamptz not null,
        response_status integer,
        duration_ms integer not null,
        response_body text,
        error text
      );
      create index webhook_attempt_delivery_idx on webhook_attempt(delivery_id, attempted_at);
    `);
  }
}
