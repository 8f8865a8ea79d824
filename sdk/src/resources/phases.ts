import type { RequestCore } from '../core';

/** The `phases` routes of the API; each resolves to the success body or throws GathercastError. */
export const phasesResource = (core: RequestCore) => core.resource('phases');
export type PhasesResource = ReturnType<typeof phasesResource>;
