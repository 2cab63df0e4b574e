import { describe, expect, it } from 'vitest';
import { catalogue } from './index.js';
import { WEB_REPORT_LIMITS, WEB_SAMPLE_RATES, cut, isSecretName, scrubSecrets, scrubUrl } from '../web-reporting.js';
import type { WebEvent } from './web-errors-params.js';

const event = (over: Partial<WebEvent> = {}): WebEvent => ({
  kind: 'error',
  source: 'onerror',
  ts: 1_700_000_000_000,
  message: 'TypeError: x is undefined',
  ...over,
});
const parse = (events: unknown, extra: Record<string, string> = {}) =>
  catalogue.reportWebEvents.params.safeParse({ events: JSON.stringify(events), sid: 'tab-12345678', ...extra });

describe('web error reporting: protocol', () => {
  it('spec §9 sample rates: errors and traces 1, replay 0.1, replay on error 1', () => {
    expect(WEB_SAMPLE_RATES).toEqual({ errors: 1, traces: 1, replay: 0.1, replayOnError: 1 });
  });

  it('accepts a batch of events and parses the JSON', () => {
    const r = parse([
      event(),
      event({ kind: 'trace', source: 'navigation', durationMs: 4200, route: '/adminNew/home' }),
    ]);
    expect(r.success).toBe(true);
    expect(r.success && r.data.events).toHaveLength(2);
    expect(r.success && r.data.events[1]!.durationMs).toBe(4200);
  });

  it('refuses what exceeds the limits: message, stack, breadcrumbs, events per batch, batch length', () => {
    expect(parse([event({ message: 'x'.repeat(WEB_REPORT_LIMITS.message + 1) })]).success).toBe(false);
    expect(parse([event({ stack: 'x'.repeat(WEB_REPORT_LIMITS.stack + 1) })]).success).toBe(false);
    const crumbs = Array.from({ length: WEB_REPORT_LIMITS.breadcrumbs + 1 }, (_, i) => ({
      ts: i,
      type: 'click',
      message: 'b',
    }));
    expect(parse([event({ breadcrumbs: crumbs as WebEvent['breadcrumbs'] })]).success).toBe(false);
    expect(parse([event({ breadcrumbs: crumbs.slice(1) as WebEvent['breadcrumbs'] })]).success).toBe(true);
    expect(parse(Array.from({ length: WEB_REPORT_LIMITS.eventsPerBatch + 1 }, () => event())).success).toBe(false);
    const long = Array.from({ length: 10 }, () => event({ stack: 'y'.repeat(6000) }));
    expect(JSON.stringify(long).length).toBeGreaterThan(WEB_REPORT_LIMITS.batchChars);
    expect(parse(long).success).toBe(false);
  });

  it('refuses a bad kind, an empty batch, no JSON, a bad session id', () => {
    expect(parse([event({ kind: 'crash' as never })]).success).toBe(false);
    expect(parse([]).success).toBe(false);
    expect(catalogue.reportWebEvents.params.safeParse({ events: '{nope', sid: 'tab-12345678' }).success).toBe(false);
    expect(parse([event()], { sid: 'short' }).success).toBe(false);
    expect(parse([event()], { sid: 'a b c d e f g h' }).success).toBe(false);
  });

  it('the signed collector needs a session, the public one none; the operator reads are role 15 only', () => {
    expect(catalogue.reportWebEvents.access.auth).toBe('signed');
    expect(catalogue.reportWebEventsPublic.access.auth).toBe('public');
    for (const a of [catalogue.queryWebErrorGroups, catalogue.queryWebErrorEvents, catalogue.queryWebErrorEvent]) {
      expect(a.access.roles).toEqual([15]);
    }
  });

  it('scrubs secrets from text and addresses', () => {
    expect(scrubUrl('/entry?redirect=%2Fhome&token=abc&sign=def#frag')).toBe(
      '/entry?redirect=%2Fhome&token=***&sign=***',
    );
    expect(scrubSecrets('GET /public/?salt=1&pwd=x&action=auth failed')).toBe(
      'GET /public/?salt=***&pwd=***&action=auth failed',
    );
    expect(scrubSecrets('{"password":"hunter2","usr":"bob"}')).toBe('{"password":"***","usr":"bob"}');
    expect(scrubSecrets('Authorization: Bearer eyJhbGciOi.x.y')).toBe('Authorization: Bearer ***');
    expect(scrubSecrets(`token ${'a1'.repeat(32)} leaked`)).toBe('token *** leaked');
    expect(scrubUrl('/qr/confirm?key=K123&x=1')).toBe('/qr/confirm?key=***&x=1');
    expect(isSecretName('authSource')).toBe(false);
    expect(isSecretName('company-key')).toBe(true);
  });

  it('cuts without splitting a surrogate pair', () => {
    expect(cut('ab😀', 3)).toBe('ab');
    expect(cut('abc', 5)).toBe('abc');
  });
});
