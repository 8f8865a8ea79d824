import type { RequestHandler } from 'express';
import { activeTracing } from '../lib/tracing';
import { routeTemplate } from './request-context';

/**
 * One server span per request, continuing the caller's W3C `traceparent`, named `GET /v1/events/:id`
 * after the route template once it is known. Installed only when tracing is on (lib/tracing.ts).
 */
export function traceRequests(): RequestHandler | undefined {
  const t = activeTracing();
  if (!t) return undefined;
  const { api, tracer } = t;
  return (req, res, next) => {
    const parent = api.propagation.extract(api.context.active(), req.headers);
    const span = tracer.startSpan(
      `${req.method}`,
      {
        kind: api.SpanKind.SERVER,
        attributes: { 'http.request.method': req.method, 'url.path': req.path, 'gathercast.request_id': req.id },
      },
      parent,
    );
    res.on('finish', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    });
    api.context.with(api.trace.setSpan(parent, span), next);
  };
}
