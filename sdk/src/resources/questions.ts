import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `questions` routes of the API; each resolves to the success body or throws GathercastError. */
export type QuestionsResource = ResourceMethods<RawClient['questions']>;
export const questionsResource = (core: RequestCore): QuestionsResource => core.resource('questions');
