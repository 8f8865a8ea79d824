import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { iso, sql } from '../db/sql';
import type { Actor } from '../lib/actor';
import { checkJwksUrl, validatePublicKeyPem } from './partner-keys';
import { ofWorkspace } from '../lib/tenancy';
import type { z } from 'zod';
import type { guestIntegrationSchema } from '@gathercast/contract';

/** As the contract says (`guestIntegrationSchema`). */
export type GuestIntegrationView = z.infer<typeof guestIntegrationSchema>;

interface IntegrationRow {
  id: string;
  workspace_id: string;
  issuer: string;
  jwks_url: string | null;
  public_key_pem: string | null;
  created_at: Date;
}

const columns = 'id, workspace_id, issuer, jwks_url, public_key_pem, created_at';

const toView = (r: IntegrationRow): GuestIntegrationView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  issuer: r.issuer,
  jwksUrl: r.jwks_url,
  publicKeyPem: r.public_key_pem,
  createdAt: iso(r.created_at)!,
});

export interface CreateIntegrationInput {
  issuer: string;
  jwksUrl?: string;
  publicKeyPem?: string;
}

/**
 * Guest integrations of a workspace. Several active integrations may share an issuer (a partner
 * rotating a PEM key registers the new one, then revokes the old one); an exchange accepts a JWT that
 * any of them verifies.
 */
export function integrationsService(settings: { allowInsecureUrls: boolean }) {
  return {
    async create(
      em: EntityManager,
      actor: Actor,
      input: CreateIntegrationInput,
    ): Promise<GuestIntegrationView> {
      // The issuer is compared with `iss` verbatim, so it is stored exactly as given (no trimming).
      const jwksUrl =
        input.jwksUrl === undefined ? null : checkJwksUrl(input.jwksUrl, settings.allowInsecureUrls);
      const publicKeyPem =
        input.publicKeyPem === undefined ? null : await validatePublicKeyPem(input.publicKeyPem);
      const [row] = await sql<IntegrationRow>(
        em,
        `insert into guest_integration (id, workspace_id, issuer, jwks_url, public_key_pem)
         values (?, ?, ?, ?, ?) returning ${columns}`,
        [randomUUID(), actor.workspaceId, input.issuer, jwksUrl, publicKeyPem],
      );
      return toView(row!);
    },

    /** Active integrations only, oldest first. */
    async list(
      em: EntityManager,
      actor: Actor,
      input: PageInput,
    ): Promise<{ integrations: GuestIntegrationView[]; nextCursor: string | null }> {
      const page = await timeOrderedPage<IntegrationRow>(
        em,
        {
          select: `select ${columns} from guest_integration where workspace_id = ? and revoked_at is null`,
          params: [actor.workspaceId],
        },
        input,
      );
      return { integrations: page.rows.map(toView), nextCursor: page.nextCursor };
    },

    /**
     * Revokes: new exchanges for it are refused from the commit on (exchanges read the row every
     * time); sessions already minted run out their lifetime. A revoked integration is gone from the
     * API, so revoking it again is 404, like an unknown one.
     */
    async revoke(em: EntityManager, actor: Actor, integrationId: string): Promise<void> {
      const rows = await sql(
        em,
        `update guest_integration set revoked_at = now()
          where id = ? and workspace_id = ? and revoked_at is null returning id`,
        [integrationId, actor.workspaceId],
      );
      ofWorkspace(rows[0], 'Guest integration');
    },
  };
}
