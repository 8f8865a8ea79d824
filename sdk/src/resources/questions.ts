import type { RequestCore } from '../core';
import type { QuestionsResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Q&A questions of an event. */
export const questions = (core: RequestCore): QuestionsResource =>
  resource<QuestionsResource>(core, routes.questions);
