import type { Express, Response } from 'express';
import { JsonText } from '../lib/json-text';

const charsetParam = /;\s*charset\s*=/i;

/**
 * JSON text written straight to the response: `application/json; charset=utf-8` (or the type already
 * set, with the charset added as Express adds it), the length in bytes, and no body for HEAD.
 */
function writeJson(res: Response, text: string): Response {
  const type = res.getHeader('Content-Type');
  res.setHeader(
    'Content-Type',
    type === undefined
      ? 'application/json; charset=utf-8'
      : charsetParam.test(String(type))
        ? String(type)
        : `${String(type)}; charset=utf-8`,
  );
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text, 'utf8');
  return res;
}

/**
 * `res.json` (what ts-rest calls with every handler's body) writes the JSON itself instead of going
 * through Express's `json` and `send`, which look the charset up, parse and re-format the content type,
 * and copy a long string into a Buffer before writing it: measurable work on every answer of the busiest
 * routes. A `JsonText` (JSON PostgreSQL already rendered, such as a page of events) is sent verbatim,
 * without parsing and re-serializing it. What `send` would add does not apply: ETags are off, so no
 * answer is a 304 for freshness; a 204 or 304 status, and an undefined body, still go to Express.
 */
export function sendJsonDirectly(app: Express): void {
  const json = app.response.json;
  app.response.json = function writeJsonBody(this: typeof app.response, body?: unknown) {
    if (body instanceof JsonText) return writeJson(this, body.text);
    if (body === undefined || this.statusCode === 204 || this.statusCode === 304) return json.call(this, body);
    return writeJson(this, JSON.stringify(body));
  } as typeof json;
}
