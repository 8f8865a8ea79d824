import type { RegistrationAnswers, RegistrationQuestion } from '@gathercast/contract';
import { type FieldError, problem } from '../lib/problem';

const at = (id: string) => `body.answers.${id}`;

/** The errors of one answer against its question (none when it fits). */
function check(q: RegistrationQuestion, answer: RegistrationAnswers[string] | undefined): string | null {
  const empty =
    answer === undefined || (typeof answer === 'string' ? answer.trim() === '' : answer.length === 0);
  if (empty) return q.required ? 'Required' : null;
  switch (q.type) {
    case 'text':
      return typeof answer === 'string' ? null : 'Must be text';
    case 'single_choice':
      if (typeof answer !== 'string') return 'Must be one of the options';
      return q.options!.includes(answer) ? null : `Must be one of: ${q.options!.join(', ')}`;
    case 'multiple_choice':
      if (!Array.isArray(answer)) return 'Must be an array of options';
      if (new Set(answer).size !== answer.length) return 'Options must not repeat';
      return answer.every((a) => q.options!.includes(a))
        ? null
        : `Each must be one of: ${q.options!.join(', ')}`;
  }
}

/**
 * The answers checked against the event's questions: required ones given, choices among the options,
 * no answer to a question the form does not ask. Answers the normalized answers (text trimmed, empty
 * optional answers dropped); a 400 names every wrong one.
 */
export function validateAnswers(
  questions: RegistrationQuestion[],
  answers: RegistrationAnswers = {},
): RegistrationAnswers {
  const errors: FieldError[] = [];
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers))
    if (!known.has(id)) errors.push({ path: at(id), code: 'unknown_field', message: 'Not a question of this event' });
  const out: RegistrationAnswers = {};
  for (const q of questions) {
    const message = check(q, answers[q.id]);
    if (message) errors.push({ path: at(q.id), code: 'invalid_value', message });
    const a = answers[q.id];
    if (a === undefined || message) continue;
    if (typeof a === 'string' ? a.trim() !== '' : a.length > 0)
      out[q.id] = typeof a === 'string' ? a.trim() : a;
  }
  if (errors.length) throw problem('bad_request', 'The answers do not fit the registration form', { errors });
  return out;
}
