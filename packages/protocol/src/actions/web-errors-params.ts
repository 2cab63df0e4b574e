/**
 * Web error reporting (issue 16, spec §9 "Error reporting sample rates"): what the web app reports
 * to the platform itself (no third-party service), the bounds every report must keep and the
 * sample rates. One declaration for the web reporter (apps/web/src/app/web-errors/), the server's
 * collector (modules/web-errors/) and the tests. docs/operations.md "Web error reporting".
 */
import { z } from 'zod';
import { WEB_BREADCRUMB_TYPES, WEB_EVENT_KINDS, WEB_EVENT_SOURCES, WEB_REPORT_LIMITS } from '../web-reporting.js';

const text = (max: number) => z.string().max(max);

export const webBreadcrumbSchema = z.object({
  ts: z.number().int().min(0),
  type: z.enum(WEB_BREADCRUMB_TYPES),
  message: text(WEB_REPORT_LIMITS.breadcrumbMessage),
});
export type WebBreadcrumb = z.infer<typeof webBreadcrumbSchema>;

/** One event as the web app sends it. */
export const webEventSchema = z.object({
  kind: z.enum(WEB_EVENT_KINDS),
  source: z.enum(WEB_EVENT_SOURCES),
  /** Epoch ms on the client. */
  ts: z.number().int().min(0),
  message: z.string().min(1).max(WEB_REPORT_LIMITS.message),
  stack: text(WEB_REPORT_LIMITS.stack).optional(),
  /** Path and query of the page (secrets removed by the client; the server scrubs again). */
  url: text(WEB_REPORT_LIMITS.url).optional(),
  /** The route pattern or path the page was on. */
  route: text(WEB_REPORT_LIMITS.route).optional(),
  /** Traces: milliseconds the page took. */
  durationMs: z.number().int().min(0).max(3_600_000).optional(),
  breadcrumbs: z.array(webBreadcrumbSchema).max(WEB_REPORT_LIMITS.breadcrumbs).optional(),
});
export type WebEvent = z.infer<typeof webEventSchema>;

/** The `events` parameter: a JSON array of events, at most WEB_REPORT_LIMITS.batchChars long. */
export const webEventsParam = () =>
  z
    .string()
    .min(2)
    .max(WEB_REPORT_LIMITS.batchChars)
    .transform((s, c) => {
      let v: unknown;
      try {
        v = JSON.parse(s);
      } catch {
        c.addIssue({ code: 'custom', message: 'not JSON' });
        return z.NEVER;
      }
      const r = z.array(webEventSchema).min(1).max(WEB_REPORT_LIMITS.eventsPerBatch).safeParse(v);
      if (!r.success) {
        c.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? 'bad event' });
        return z.NEVER;
      }
      return r.data;
    });
