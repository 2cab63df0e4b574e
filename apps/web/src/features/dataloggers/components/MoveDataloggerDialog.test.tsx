import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ROLE, type CollectorDetail } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { fail, installFakeApi, ok, paged, renderWithApp, resetAppTest } from '../../../test/fake-api';
import MoveDataloggerDialog from './MoveDataloggerDialog';

if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

const ROW = { pn: 'SWSOUTH0000002', alias: 'South roof', status: 0 };
const DETAIL = { pn: ROW.pn, vendorUsr: 'sunmaker', usr: 'owner_ben', pname: 'Ben Garage' } as Partial<CollectorDetail>;
const account = (uid: number, usr: string, role: number, over: Record<string, unknown> = {}) => ({
  uid,
  usr,
  role,
  qname: '',
  mobile: '',
  email: '',
  ...over,
});

async function choose(testId: string, text: string) {
  const root = screen.getByTestId(testId);
  const combo =
    root.getAttribute('role') === 'combobox'
      ? root
      : ((root.querySelector('[role="combobox"]') as HTMLElement | null) ??
        (root.closest('.ant-select')?.querySelector('[role="combobox"]') as HTMLElement));
  fireEvent.mouseDown(combo);
  const options = await screen.findAllByText(
    text,
    { selector: '.ant-select-item-option-content' },
    { timeout: 10_000 },
  );
  fireEvent.click(options[options.length - 1]!);
}

function searchIn(testId: string, text: string) {
  const root = screen.getByTestId(testId);
  const input = (root.tagName === 'INPUT' ? root : root.querySelector('input')) as HTMLInputElement;
  fireEvent.change(input, { target: { value: text } });
}

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(resetAppTest);

describe('the operator moves a datalogger', () => {
  it('to another manufacturer found by the server search; shows the 276 refusal', async () => {
    const api = installFakeApi({
      queryCollectorDetail: ok(DETAIL),
      webQueryUsrEs: (q) =>
        paged('account', q.get('search') === 'other' ? [account(31, 'othermaker', 1, { qname: 'Other Co' })] : []),
      moveCollectorVendor: fail(276),
    });
    const onClose = vi.fn();
    renderWithApp(<MoveDataloggerDialog row={ROW} onClose={onClose} />, { role: ROLE.OPERATOR });
    expect(await screen.findByText('sunmaker')).toBeTruthy();
    expect(screen.getByText('owner_ben · Ben Garage')).toBeTruthy();
    // nothing chosen: asks for a manufacturer, calls nothing
    fireEvent.click(screen.getByTestId('dl-move-run'));
    expect((await screen.findByTestId('dl-move-error')).textContent).toContain('Search a manufacturer');
    expect(api.count('moveCollectorVendor')).toBe(0);

    searchIn('dl-move-account', 'other');
    await waitFor(() => expect(api.last('webQueryUsrEs')?.get('search')).toBe('other'));
    expect(api.last('webQueryUsrEs')?.get('role')).toBe('1');
    await choose('dl-move-account', 'othermaker · Other Co');
    fireEvent.click(screen.getByTestId('dl-move-run'));
    await waitFor(() => expect(api.count('moveCollectorVendor')).toBe(1));
    expect(api.last('moveCollectorVendor')?.get('pn')).toBe(ROW.pn);
    expect(api.last('moveCollectorVendor')?.get('vendorUid')).toBe('31');
    // the refusal stays in the dialog, in words
    await waitFor(() => expect(screen.getByTestId('dl-move-error').textContent).not.toContain('Search a manufacturer'));
    expect(screen.getByTestId('dl-move-error').textContent).not.toBe('');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('to another owner, onto a chosen plant', async () => {
    const api = installFakeApi({
      queryCollectorDetail: ok({ ...DETAIL, usr: '', pname: '' }),
      webQueryUsrEs: (q) =>
        paged(
          'account',
          q.get('role') === '0'
            ? [account(7, 'owner_anna', 0, { email: 'anna@example.com' })]
            : [account(2, 'sunmaker', 1)],
        ),
      webQueryPlants: paged('plant', [{ pid: 4, uid: 7, usr: 'owner_anna', name: 'Anna Elbblick Home' }]),
      moveCollectorOwner: ok({
        pn: ROW.pn,
        vendorUid: 2,
        vendorUsr: 'sunmaker',
        adminUid: 3,
        uid: 7,
        usr: 'owner_anna',
        pid: 4,
      }),
    });
    const onClose = vi.fn();
    renderWithApp(<MoveDataloggerDialog row={ROW} onClose={onClose} />, { role: ROLE.OPERATOR });
    expect(await screen.findByText('No owner')).toBeTruthy();
    fireEvent.click(screen.getByText('To another owner'));
    await waitFor(() => expect(api.last('webQueryUsrEs')?.get('role')).toBe('0'));
    await choose('dl-move-account', 'owner_anna · anna@example.com');
    await waitFor(() => expect(api.last('webQueryPlants')?.get('uid')).toBe('7'));
    await choose('dl-move-plant', 'Anna Elbblick Home');
    fireEvent.click(screen.getByTestId('dl-move-run'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const q = api.last('moveCollectorOwner')!;
    expect([q.get('pn'), q.get('uid'), q.get('plantid')]).toEqual([ROW.pn, '7', '4']);
  });
});
