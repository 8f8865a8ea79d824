import type { RequestCore } from './core';
import type { RawResources, Resources } from './generated/api';
import { rawResource, resource } from './resource';
import { routes } from './routes';

/**
 * Every resource of the API over one request core, built from the generated route table: a route
 * added to the contract is a method here after `pnpm generate`, named by the verb table.
 */
export function resources(core: RequestCore): Resources {
  const out: Record<string, unknown> = {};
  for (const [group, members] of Object.entries(routes)) out[group] = resource(core, group, members);
  return out as unknown as Resources;
}

/** Every route answering the final `{ status, body, headers }`, never thrown, no retries by default. */
export function rawResources(core: RequestCore): RawResources {
  const out: Record<string, unknown> = {};
  for (const [group, members] of Object.entries(routes)) out[group] = rawResource(core, group, members);
  return out as unknown as RawResources;
}
