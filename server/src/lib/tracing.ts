import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';

/**
 * OpenTelemetry traces, off unless the standard variables ask for them (docs/deploy.md):
 * `OTEL_TRACES_EXPORTER=otlp`, or an `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`
 * without `OTEL_TRACES_EXPORTER=none`; `OTEL_SDK_DISABLED=true` wins over both. The exporter reads the
 * rest (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`, …) itself.
 * When off, nothing of OpenTelemetry is even loaded and `traced()` is a plain call.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  if (exporter === 'otlp') return true;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

interface Tracing {
  tracer: Tracer;
  api: typeof import('@opentelemetry/api');
  shutdown(): Promise<void>;
}

let tracing: Tracing | undefined;
let starting: Promise<Tracing | undefined> | undefined;
let users = 0;

/** The active tracer, or undefined when tracing is off (the hot paths test this and do nothing more). */
export function activeTracing(): Tracing | undefined {
  return tracing;
}

/**
 * Starts the process's tracer provider once (several servers in one process share it) and patches
 * pg's `Client.prototype.query` so every statement (ORM, hot-path pool, webhook worker) is a span.
 * Returns a function that flushes and, with the last server, shuts it down.
 */
export async function startTracing(logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<() => Promise<void>> {
  if (!tracingRequested(env)) return async () => {};
  starting ??= load(logger, env);
  const t = await starting;
  if (!t) return async () => {};
  users++;
  return async () => {
    if (--users > 0) return;
    tracing = undefined;
    starting = undefined;
    await t.shutdown();
  };
}

async function load(logger: Logger, env: NodeJS.ProcessEnv): Promise<Tracing | undefined> {
  try {
    const [api, { BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }] =
      await Promise.all([
        import('@opentelemetry/api'),
        import('@opentelemetry/sdk-trace-base'),
        import('@opentelemetry/exporter-trace-otlp-http'),
        import('@opentelemetry/resources'),
        import('@opentelemetry/context-async-hooks'),
        import('@opentelemetry/core'),
      ]);
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'gathercast' }),
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    const contextManager = new AsyncLocalStorageContextManager().enable();
    api.context.setGlobalContextManager(contextManager);
    api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    api.trace.setGlobalTracerProvider(provider);
    const tracer = api.trace.getTracer('gathercast');
    const unpatch = await patchPg(api, tracer);
    tracing = {
      tracer,
      api,
      shutdown: async () => {
        unpatch();
        await provider.shutdown();
        api.trace.disable();
        api.context.disable();
        api.propagation.disable();
      },
    };
    logger.info({ endpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'OpenTelemetry tracing on');
    return tracing;
  } catch (err) {
    logger.error({ err }, 'OpenTelemetry tracing could not start; running without it');
    return undefined;
  }
}

/** Wraps pg's query so each statement becomes a client span under the current one (only with tracing on). */
async function patchPg(api: typeof import('@opentelemetry/api'), tracer: Tracer): Promise<() => void> {
  const pg = (await import('pg')).default;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function tracedQuery(this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    // Only spans inside a trace: pool keep-alives and LISTEN loops outside any request stay out.
    if (!text || !api.trace.getSpan(api.context.active())) return original.apply(this, args);
    const span = tracer.startSpan(`pg ${text.trimStart().split(/\s+/, 1)[0]!.toLowerCase()}`, {
      kind: api.SpanKind.CLIENT,
      attributes: { 'db.system.name': 'postgresql', 'db.query.text': text.slice(0, 2000) },
    });
    const callback = typeof args[args.length - 1] === 'function' ? (args.length - 1) : -1;
    if (callback >= 0) {
      const cb = args[callback] as (err: unknown, res: unknown) => void;
      args[callback] = (err: unknown, res: unknown) => {
        endSpan(api, span, err);
        cb(err, res);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') {
      result.then(
        () => endSpan(api, span),
        (err) => endSpan(api, span, err),
      );
    } else endSpan(api, span);
    return result;
  };
  return () => {
    proto.query = original;
  };
}

function endSpan(api: typeof import('@opentelemetry/api'), span: Span, err?: unknown): void {
  if (err) {
    span.recordException(err as Error);
    span.setStatus({ code: api.SpanStatusCode.ERROR });
  }
  span.end();
}

/** Runs `fn` in a span named `name` when tracing is on; otherwise just runs it. */
export async function traced<T>(name: string, attributes: Attributes, fn: (span?: Span) => Promise<T>): Promise<T> {
  const t = tracing;
  if (!t) return fn();
  return t.tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: t.api.SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
