import { findInputProblem } from '@gathercast/contract';
import type { Request, RequestHandler } from 'express';
import { problem } from '../lib/problem';

/** Media types read as JSON (the same list `express.json` parses). */
export const jsonMediaTypes = ['application/json', 'application/*+json'];

function carriesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * The one input step of every API route, after authentication and before idempotency and the
 * contract's validation: a body must be JSON (415 `unsupported_media_type`), and no string in the body,
 * the query, the path or the headers may hold NUL or a lone surrogate, nor the body nest deeper than
 * the contract's `maxInputDepth` (400 `bad_request` naming the field). Nothing that breaks these rules
 * reaches a handler, a log line or the database (docs/input-rules.md).
 */
export const checkInput = (): RequestHandler => (req, _res, next) => {
  // express.json (jsonMediaTypes) marks a body it read with `_body`: a body it left unread is not JSON.
  // Its verdict is reused rather than parsing the content type a second time on every write.
  if (carriesBody(req) && !(req as Request & { _body?: boolean })._body) {
    const type = req.headers['content-type'];
    return next(
      problem(
        'unsupported_media_type',
        `Request bodies are JSON: send Content-Type: application/json${type ? ` (got ${type.slice(0, 100)})` : ''}`,
      ),
    );
  }
  const found =
    findInputProblem(req.params, 'params') ??
    findInputProblem(req.query, 'query') ??
    findInputProblem(req.headers, 'headers') ??
    findInputProblem(req.body, 'body');
  if (found) return next(problem('bad_request', `Invalid request: ${found.path}: ${found.message}`, { errors: [found] }));
  next();
};
