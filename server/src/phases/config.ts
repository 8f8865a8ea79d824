import { type Modality, phaseConfigSchemas } from '@gathercast/contract';
import { fieldErrors, problem } from '../lib/problem';

/**
 * Validates a phase config against its modality's strict schema (unknown keys refused, defaults
 * filled in). Throws 400 bad_request naming each invalid field under `prefix`.
 */
export function validateConfig(
  modality: Modality,
  config: unknown,
  prefix = 'body.config',
): Record<string, unknown> {
  const parsed = phaseConfigSchemas[modality].safeParse(config ?? {});
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error.issues, prefix);
    throw problem(
      'bad_request',
      `Invalid ${modality} config: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      {
        errors,
      },
    );
  }
  return parsed.data as Record<string, unknown>;
}

/** The phase timer in seconds, if the modality has one: breakout durationSeconds, rotation rounds × roundSeconds. */
export function timerSeconds(modality: Modality, config: Record<string, unknown>): number | null {
  if (modality === 'breakout')
    return typeof config.durationSeconds === 'number' ? config.durationSeconds : null;
  if (modality === 'rotation') return Number(config.rounds) * Number(config.roundSeconds);
  return null;
}

/** Feature sets are sets: duplicates dropped, first-seen order kept. */
export const normalizeFeatures = (features: readonly string[] | undefined): string[] => [
  ...new Set(features ?? []),
];
