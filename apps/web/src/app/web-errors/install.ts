/**
 * Wires the web reporter (reporter.ts) into the browser: global errors and unhandled rejections,
 * clicks and route changes as breadcrumbs, slow first load and slow navigations as traces, and a
 * last flush when the page is hidden. Installed once from main.tsx; `noteAction` is called by the
 * API client (api.ts) for each action call. Sends with the base client that main.tsx passes (never
 * the session-ending wrapper: a report must not sign anyone out).
 */
import { WEB_SAMPLE_RATES, type ApiClient, type WebEvent, type WebEventSource } from '@sunwatch/protocol';
import { getSession } from '../session';
import { WebReporter } from './reporter';

const SID_KEY = 'sw.report.sid';
const REPLAY_KEY = 'sw.report.replay';
/** How long the slow-page trace waits for a page to finish loading its chunks (ms). */
const READY_TIMEOUT_MS = 30_000;

let current: WebReporter | undefined;

/** The release the build names (VITE_SUNWATCH_RELEASE), else the mode. */
export const RELEASE: string = String(import.meta.env.VITE_SUNWATCH_RELEASE || import.meta.env.MODE || 'dev').slice(
  0,
  64,
);

function randomId(): string {
  const a = new Uint8Array(12);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A value of this tab's session storage, created once. */
function tabValue(key: string, make: () => string): string {
  try {
    const v = sessionStorage.getItem(key);
    if (v) return v;
    const n = make();
    sessionStorage.setItem(key, n);
    return n;
  } catch {
    return make();
  }
}

/** A short, secret-free description of a clicked element: tag, test id or label, role. */
export function describeTarget(el: Element | null): string {
  const t = el?.closest('button,a,[role="button"],[role="tab"],[role="menuitem"],input,select,[data-testid]') ?? el;
  if (!t) return '';
  const tag = t.tagName.toLowerCase();
  const id = t.getAttribute('data-testid');
  const label = t.getAttribute('aria-label') ?? (tag === 'input' ? '' : (t.textContent ?? '').trim().slice(0, 40));
  return [tag, id ? `#${id}` : '', label ? `"${label}"` : ''].filter(Boolean).join(' ');
}

/** A breadcrumb of an action call (api.ts). */
export function noteAction(name: string, err: number): void {
  current?.breadcrumb('action', err === 0 ? name : `${name} → err ${err}`);
}

/** A React error boundary's error (main.tsx root options, RouteErrorPage). */
export function reportBoundaryError(error: unknown): void {
  current?.captureError(error, 'boundary');
}

/** The app rendered and shows no route spinner. */
function pageReady(): boolean {
  const root = document.getElementById('root');
  return (root?.childElementCount ?? 0) > 0 && !document.querySelector('[data-testid="route-loading"]');
}

/** Resolves with performance.now() once no route spinner shows (or after READY_TIMEOUT_MS). */
function whenReady(): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      if (pageReady() || performance.now() - start > READY_TIMEOUT_MS) resolve(performance.now());
      else setTimeout(check, 100);
    };
    setTimeout(check, 0);
  });
}

interface RouterLike {
  state: { initialized?: boolean; navigation: { state: string }; location: { pathname: string } };
  subscribe(fn: (state: RouterLike['state']) => void): () => void;
}

/** Sends one batch with the base client (app/api.ts `baseClient`, passed by main.tsx). */
async function send(
  client: Pick<ApiClient, 'post'>,
  events: WebEvent[],
  signed: boolean,
  keepalive: boolean,
  sid: string,
): Promise<void> {
  const params = { sid, release: RELEASE, events: JSON.stringify(events) };
  if (signed) await client.post('reportWebEvents', params, { keepalive });
  else await client.post('reportWebEventsPublic', params, { keepalive });
}

export function installWebReporter(router: RouterLike, client: Pick<ApiClient, 'post'>): WebReporter {
  if (current) return current;
  const sid = tabValue(SID_KEY, randomId);
  const replaySampled = tabValue(REPLAY_KEY, () => (Math.random() < WEB_SAMPLE_RATES.replay ? '1' : '0')) === '1';
  const reporter = new WebReporter({
    send: (events, signed, keepalive) => send(client, events, signed, keepalive, sid),
    hasSession: () => getSession() !== undefined,
    now: () => Date.now(),
    random: () => Math.random(),
    location: () => window.location.pathname + window.location.search,
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    replaySampled,
  });
  current = reporter;

  const capture = (error: unknown, source: WebEventSource) => reporter.captureError(error, source);
  window.addEventListener('error', (e: ErrorEvent) => capture(e.error ?? e.message, 'onerror'));
  window.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => capture(e.reason, 'unhandledrejection'));
  document.addEventListener('click', (e) => reporter.breadcrumb('click', describeTarget(e.target as Element | null)), {
    capture: true,
    passive: true,
  });
  const hide = () => {
    reporter.replay();
    void reporter.flush(true);
  };
  window.addEventListener('pagehide', hide);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') hide();
  });

  // Route changes and slow pages: a navigation lasts from its start until its page shows (no spinner).
  let path = router.state.location.pathname;
  let navStart: number | undefined;
  let firstLoad = true;
  const settle = (source: 'first-load' | 'navigation', start: number, route: string) =>
    void whenReady().then((end) => reporter.trace(source, route, end - start));
  reporter.breadcrumb('route', path);
  router.subscribe((state) => {
    if (state.navigation.state !== 'idle' || state.initialized === false) {
      if (state.initialized !== false) navStart ??= performance.now();
      return;
    }
    const next = state.location.pathname;
    if (firstLoad) {
      firstLoad = false;
      settle('first-load', 0, next);
    } else if (navStart !== undefined && next !== path) {
      settle('navigation', navStart, next);
    }
    navStart = undefined;
    if (next !== path) {
      path = next;
      reporter.breadcrumb('route', next);
    }
  });
  // A first load that needed no navigation (the router was idle already).
  if (router.state.navigation.state === 'idle' && router.state.initialized !== false) {
    firstLoad = false;
    settle('first-load', 0, path);
  }
  return reporter;
}
