import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `phases` routes of the API; each resolves to the success body or throws GathercastError. */
export type PhasesResource = ResourceMethods<RawClient['phases']>;
export const phasesResource = (core: RequestCore): PhasesResource => core.resource('phases');
