import type { Express } from 'express';
import { JsonText } from '../lib/json-text';

/**
 * Lets `res.json` (what ts-rest calls with a handler's body) send a `JsonText` verbatim: the same
 * status, `application/json; charset=utf-8` and content-length as for a serialized object, without
 * parsing and re-serializing text that is already JSON. Other bodies go to Express's own `json`.
 */
export function sendJsonTextVerbatim(app: Express): void {
  const json = app.response.json;
  app.response.json = function jsonOrJsonText(this: typeof app.response, body?: unknown) {
    if (!(body instanceof JsonText)) return json.call(this, body);
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(body.text);
  } as typeof json;
}
