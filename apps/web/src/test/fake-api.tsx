/**
 * The shared fake of the action endpoint (`/public/?…&action=<name>`) for web unit tests, and the
 * app's providers around a screen (query client without retries, antd, i18n, a memory router).
 *
 *   const api = installFakeApi({ queryUpgradeableFirmware: ok(offers), firmwareUpgradeDevice: ok({ ret: 0 }) });
 *   renderWithApp(<DeviceUpgradeTab device={DEVICE} />, { role: ROLE.OWNER });
 *   expect(api.last('firmwareUpgradeDevice')?.get('sn')).toBe('SN1');
 *
 * Each action answers from its handler (an answer, or a function of the call's parameters and how
 * many times the action was called before); an action without a handler answers err 9 (not
 * supported), as the server does for an unknown action. Every call is recorded, in order. Install
 * it after `signInAs` or before the render; `resetAppTest` (afterEach) undoes both.
 */
import type { ReactElement, ReactNode } from 'react';
import { vi } from 'vitest';
import { cleanup, render, type RenderResult } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { AuthDat, Role } from '@sunwatch/protocol';
import { Providers } from '../app/providers';
import { clearSession, saveLogin } from '../app/session';
import { authDat } from './session-fixtures';

/** The envelope of an answer (`desc` defaults to ERR_NONE / ERR). */
export interface FakeAnswer {
  err: number;
  dat?: unknown;
  msg?: string;
  desc?: string;
}

/** One recorded call: the action, its query parameters, the method and a multipart body if any. */
export interface FakeCall {
  action: string;
  params: URLSearchParams;
  method: string;
  body: unknown;
}

/** `n`: how many calls of this action came before this one (0 for the first). */
export type FakeHandler = FakeAnswer | ((params: URLSearchParams, n: number, call: FakeCall) => FakeAnswer);

export type FakeHandlers = Record<string, FakeHandler>;

export interface FakeApi {
  /** Every call, in order. */
  readonly calls: readonly FakeCall[];
  /** The parameters of each call of `action`, in order. */
  callsOf(action: string): URLSearchParams[];
  /** The parameters of the last call of `action`, if any. */
  last(action: string): URLSearchParams | undefined;
  /** How many times `action` was called. */
  count(action: string): number;
  /** The action names, in call order. */
  actions(): string[];
  /** Adds or replaces handlers (e.g. what the next poll answers). */
  on(handlers: FakeHandlers): void;
}

/** A successful answer. */
export const ok = (dat?: unknown): FakeAnswer => ({ err: 0, dat });
/** An error answer. */
export const fail = (err: number, msg?: string): FakeAnswer => ({ err, ...(msg ? { msg } : {}) });
/** A page of a server-paged list: `{ total, page, pagesize, [key]: rows }`. */
export const paged = (key: string, rows: readonly unknown[], extra: Record<string, unknown> = {}): FakeAnswer =>
  ok({ total: rows.length, page: 0, pagesize: Math.max(10, rows.length), [key]: rows, ...extra });

/**
 * Replaces `fetch` by the fake endpoint. `fallback` answers actions without a handler (err 9 when
 * it returns undefined); it is how a test answers by a rule rather than by name.
 */
export function installFakeApi(
  handlers: FakeHandlers = {},
  fallback?: (action: string, params: URLSearchParams) => FakeAnswer | undefined,
): FakeApi {
  const table: FakeHandlers = { ...handlers };
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const params = new URL(url, 'http://localhost').searchParams;
      const action = params.get('action') ?? '';
      const call: FakeCall = { action, params, method: init?.method ?? 'GET', body: init?.body };
      const n = calls.filter((c) => c.action === action).length;
      calls.push(call);
      const h = table[action];
      const a = (typeof h === 'function' ? h(params, n, call) : h) ?? fallback?.(action, params) ?? fail(9);
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  const callsOf = (action: string) => calls.filter((c) => c.action === action).map((c) => c.params);
  return {
    calls,
    callsOf,
    last: (action) => callsOf(action).at(-1),
    count: (action) => callsOf(action).length,
    actions: () => calls.map((c) => c.action),
    on: (more) => Object.assign(table, more),
  };
}

/** Signs a test user in (session state as after a login). */
export function signInAs(role: Role | number, over: Partial<AuthDat> = {}): void {
  saveLogin(authDat({ role: role as Role, ...over }), { remember: false });
}

/** A query client as the app's, without retries (an error shows at once). */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

export interface RenderAppOptions {
  /** Signs in with this role first. */
  role?: Role | number;
  /** The memory router's location. */
  path?: string;
  queryClient?: QueryClient;
}

/** The app's providers (query client, antd, i18n) and a memory router around `ui`. */
export function AppFrame({
  children,
  queryClient,
  path = '/',
}: {
  children: ReactNode;
  queryClient: QueryClient;
  path?: string;
}) {
  return (
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </Providers>
  );
}

/** Renders `ui` inside the app's providers; returns the render result and the query client. */
export function renderWithApp(
  ui: ReactElement,
  options: RenderAppOptions = {},
): RenderResult & { queryClient: QueryClient } {
  if (options.role !== undefined) signInAs(options.role);
  const queryClient = options.queryClient ?? testQueryClient();
  const r = render(
    <AppFrame queryClient={queryClient} {...(options.path ? { path: options.path } : {})}>
      {ui}
    </AppFrame>,
  );
  return Object.assign(r, { queryClient });
}

/** afterEach: unmounts, restores `fetch` and signs out. */
export function resetAppTest(): void {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
}
