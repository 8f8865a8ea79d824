import type { RequestCore } from '../core';
import type { PhasesResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** The phases of an event (its agenda): broadcast, meeting, breakout, rotation. */
export const phases = (core: RequestCore): PhasesResource => resource<PhasesResource>(core, routes.phases);
