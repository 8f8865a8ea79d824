import type { EventRole, Modality } from '@gathercast/contract';

const rolesByModality: Record<Modality, readonly EventRole[]> = {
  broadcast: ['host', 'speaker', 'viewer'],
  meeting: ['host', 'participant'],
  breakout: ['host', 'participant'],
  rotation: ['host', 'participant'],
};

const roleOrder: readonly EventRole[] = ['host', 'speaker', 'participant', 'viewer', 'workspace_admin'];

/**
 * The roles an event accepts: the union of its phases' roles, plus workspace_admin everywhere.
 * An event without phases accepts only workspace_admin.
 */
export function assignableRoles(modalities: readonly Modality[]): EventRole[] {
  const set = new Set<EventRole>(['workspace_admin']);
  for (const m of modalities) for (const r of rolesByModality[m]) set.add(r);
  return roleOrder.filter((r) => set.has(r));
}

export function isAssignable(role: EventRole, modalities: readonly Modality[]): boolean {
  return assignableRoles(modalities).includes(role);
}

/**
 * How a stored role reads in a phase of the given modality. Stored roles are never rewritten, and
 * narrowing never widens access: a speaker in a call reads as participant; a participant in a
 * broadcast reads as viewer (audience, no media seat). host and workspace_admin read as themselves.
 */
export function narrowRole(role: EventRole, modality: Modality): EventRole {
  if (modality === 'broadcast') return role === 'participant' ? 'viewer' : role;
  // meeting, breakout, rotation
  if (role === 'speaker') return 'participant';
  return role;
}

/**
 * The roles a caller may give someone on an event, by storing a membership or by minting a live token
 * or join link: any role the event accepts; workspace_admin only for an owner, an admin or an API key.
 */
export function grantableRoles(modalities: readonly Modality[], callerIsAdmin: boolean): EventRole[] {
  return assignableRoles(modalities).filter((r) => r !== 'workspace_admin' || callerIsAdmin);
}

/** The audience default, for someone without a stored role: participant, which broadcasts narrow to viewer. */
export const audienceRole: EventRole = 'participant';

/**
 * Someone's stored role in an event, as gateway tokens are minted with it: a stored membership wins;
 * without one workspace owners and admins are hosts, everyone else audience.
 */
export const storedRoleFrom = (
  membership: EventRole | null,
  workspaceRole: 'owner' | 'admin' | 'member' | null,
): EventRole =>
  membership ?? (workspaceRole === 'owner' || workspaceRole === 'admin' ? 'host' : audienceRole);
