import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import i18n from '../../../i18n';
import { Providers } from '../../../app/providers';
import { clearSession, saveLogin } from '../../../app/session';
import { authDat } from '../../../test/session-fixtures';
import { BindContactCard } from './BindContactCard';

/** A fake server holding the account's bound email; records every call (action and params). */
function fakeServer() {
  const state = { email: '' };
  const calls: Array<{ action: string; q: URLSearchParams }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const q = new URL(url, 'http://localhost').searchParams;
      const action = q.get('action') ?? '';
      calls.push({ action, q });
      let a: { err: number; dat?: unknown } = { err: 9 };
      if (action === 'queryAccountInfo') a = { err: 0, dat: { uid: 7, usr: 'owner_fay', role: 0, email: state.email, mobile: '' } };
      if (action === 'sendBindCode') a = { err: 0 };
      if (action === 'bindEmail') {
        state.email = q.get('email') ?? '';
        a = { err: 0 };
      }
      if (action === 'unbindEmail') {
        state.email = '';
        a = { err: 0 };
      }
      return new Response(JSON.stringify({ desc: a.err ? 'ERR' : 'ERR_NONE', ...a }), { headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
  saveLogin(authDat({ role: 0, usr: 'owner_fay' }), { remember: false });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

const sendButton = () => screen.getByTestId('bind-send').closest('button')!;
const type = (id: string, v: string) => fireEvent.change(screen.getByTestId(id), { target: { value: v } });

describe('BindContactCard', () => {
  it('binds an email with a code; a corrected address can be sent to at once; unbinds after the warning', async () => {
    const calls = fakeServer();
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <Providers queryClient={qc}>
        <MemoryRouter>
          <BindContactCard />
        </MemoryRouter>
      </Providers>,
    );
    fireEvent.click(await screen.findByTestId('bind-email'));
    type('bind-value', 'fay@exampel.com');
    fireEvent.click(sendButton());
    await waitFor(() => expect(sendButton().textContent).toMatch(/^Resend in (300|299) s$/));
    expect(sendButton().disabled).toBe(true);
    // the address was mistyped: corrected, the code can go to it at once
    type('bind-value', 'fay@example.com');
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    expect(sendButton().textContent).toBe(i18n.t('selfservice:code.send'));
    fireEvent.click(sendButton());
    await waitFor(() => expect(sendButton().disabled).toBe(true));
    const sent = calls.filter((c) => c.action === 'sendBindCode').map((c) => [c.q.get('purpose'), c.q.get('channel'), c.q.get('email')]);
    expect(sent).toEqual([
      ['bind', '1', 'fay@exampel.com'],
      ['bind', '1', 'fay@example.com'],
    ]);
    // back to the first address: its countdown still runs
    type('bind-value', 'fay@exampel.com');
    await waitFor(() => expect(sendButton().disabled).toBe(false));
    type('bind-value', 'fay@example.com');
    await waitFor(() => expect(sendButton().disabled).toBe(true));

    type('bind-code', '123456');
    fireEvent.click(screen.getByTestId('bind-save').closest('button')!);
    expect((await screen.findByTestId('bound-email')).textContent).toBe('fay@example.com');
    const bind = calls.find((c) => c.action === 'bindEmail')!;
    expect([bind.q.get('email'), bind.q.get('smsCode')]).toEqual(['fay@example.com', '123456']);

    fireEvent.click(screen.getByTestId('unbind-email'));
    expect((await screen.findByTestId('unbind-warning')).textContent).toContain('fay@example.com');
    fireEvent.click(sendButton());
    await waitFor(() => expect(sendButton().disabled).toBe(true));
    expect(calls.filter((c) => c.action === 'sendBindCode').at(-1)!.q.get('purpose')).toBe('unbind');
    type('bind-code', '654321');
    fireEvent.click(screen.getByTestId('bind-save').closest('button')!);
    await waitFor(() => expect(screen.queryByTestId('bound-email')).toBeNull());
    expect(calls.find((c) => c.action === 'unbindEmail')!.q.get('smsCode')).toBe('654321');
  });
});
