import type { RequestCore } from '../core';

/** The `questions` routes of the API; each resolves to the success body or throws GathercastError. */
export const questionsResource = (core: RequestCore) => core.resource('questions');
export type QuestionsResource = ReturnType<typeof questionsResource>;
