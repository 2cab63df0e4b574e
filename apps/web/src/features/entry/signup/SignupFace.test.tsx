import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiCallError, encodeSelfServicePassword, rc4DecryptHex, sha1Hex } from '@sunwatch/protocol';
import i18n from '../../../i18n';
import { checkSignupField, usernameCount, type SignupValues } from './signup-rules';
import { takeLoginPrefill } from './prefill';
import { codeDeadline, codeTarget } from './parts';

import { baseClient } from '../../../app/api';
import { SignupFace } from './SignupFace';

// the face calls the app's client: its calls are answered here (a spy on the shared object, not a
// module mock: web test files share one module graph per worker, vitest.config.ts)
const call = vi.fn();

const V = (p: Partial<SignupValues>): SignupValues => ({ usr: '', pwd: '', confPwd: '', sn: '', country: '', phone: '', email: '', code: '', ...p });

describe('signup rules (spec §5)', () => {
  it('every field rule', () => {
    expect(checkSignupField('usr', V({ usr: 'a' }))?.key).toBe('rules.username.length');
    expect(checkSignupField('usr', V({ usr: 'bad name' }))?.key).toBe('rules.username.chars');
    expect(checkSignupField('usr', V({ usr: '太阳_01' }))).toBeUndefined();
    expect(checkSignupField('pwd', V({ pwd: '123456' }))?.key).toBe('rules.password.tooSimple');
    expect(checkSignupField('pwd', V({ pwd: 'abc' }))?.key).toBe('rules.password.length');
    expect(checkSignupField('confPwd', V({ pwd: 'Solar_2026', confPwd: 'Solar_2027' }))?.key).toBe('rules.confirmPassword.mismatch');
    expect(checkSignupField('sn', V({ sn: '' }))?.key).toBe('rules.pn.required');
    expect(checkSignupField('country', V({}))?.key).toBe('rules.country.required');
    expect(checkSignupField('email', V({ email: 'x@' }))?.key).toBe('rules.email.format');
    expect(checkSignupField('phone', V({ phone: '12a45678' }))?.key).toBe('rules.phone.digits');
    expect(checkSignupField('code', V({ code: '12345' }))?.key).toBe('rules.code.format');
    expect(checkSignupField('code', V({ code: '123456' }))).toBeUndefined();
  });

  it('counts characters only once the username is valid', () => {
    expect(usernameCount('a')).toBeUndefined();
    expect(usernameCount('太阳_01')).toBe('5/32');
  });

  it('encodes the password keyed by the username digest', () => {
    const { pwd, pwdtext } = encodeSelfServicePassword('new_owner', 'Solar_2026');
    expect(rc4DecryptHex(sha1Hex('new_owner'), pwd)).toBe(sha1Hex('Solar_2026'));
    expect(rc4DecryptHex(sha1Hex('new_owner'), pwdtext)).toBe('Solar_2026');
  });
});

describe('SignupFace', () => {
  let spy: { mockRestore(): void } | undefined;
  beforeAll(async () => {
    await i18n.changeLanguage('en_US');
    spy = vi.spyOn(baseClient, 'call').mockImplementation(((...a: unknown[]) => call(...a)) as typeof baseClient.call);
  });
  afterAll(() => spy?.mockRestore());
  afterEach(() => {
    cleanup();
    call.mockReset();
    sessionStorage.clear();
  });

  const type = (name: string, v: string) => fireEvent.change(screen.getByTestId(`ss-${name}`), { target: { value: v } });

  it('email only in English; strength levels; count; sends the code and signs up, then prefills login', async () => {
    const onBack = vi.fn();
    render(<SignupFace onBack={onBack} />);
    expect(screen.queryByTestId('ss-tab-phone')).toBeNull();
    expect(screen.queryByTestId('ss-phone')).toBeNull();
    type('usr', 'new_owner');
    expect(screen.getByTestId('ss-usr-count').textContent).toBe('9/32');
    type('pwd', 'solar');
    expect(screen.getByTestId('ss-strength').dataset.strength).toBe('weak');
    type('pwd', 'solar2026');
    expect(screen.getByTestId('ss-strength').dataset.strength).toBe('medium');
    type('pwd', 'Solar_2026');
    expect(screen.getByTestId('ss-strength').dataset.strength).toBe('strong');

    fireEvent.click(screen.getByTestId('ss-send-code'));
    expect(await screen.findByText(i18n.t('rules.email.required', { ns: 'rules' }))).toBeTruthy();
    type('email', 'x@');
    fireEvent.click(screen.getByTestId('ss-send-code'));
    expect(await screen.findByText(i18n.t('rules.email.format', { ns: 'rules' }))).toBeTruthy();
    expect(call).not.toHaveBeenCalled();
    type('email', 'new.owner@example.com');
    call.mockResolvedValueOnce(undefined);
    fireEvent.click(screen.getByTestId('ss-send-code'));
    await waitFor(() => expect(screen.getByTestId('ss-send-code').textContent).toMatch(/Resend in 1(80|79) s/));
    expect(call).toHaveBeenCalledWith('sendSmsCodeMobile', { channel: '1', msgType: '0', email: 'new.owner@example.com' });

    type('confPwd', 'Solar_2026');
    type('sn', 'SWNORTH0000101');
    fireEvent.change(screen.getByTestId('ss-country'), { target: { value: 'DE' } });
    type('code', '123456');
    call.mockRejectedValueOnce(new ApiCallError(512, 'ERR', 'The SMS code does not match'));
    fireEvent.click(screen.getByTestId('ss-submit'));
    expect((await screen.findByTestId('ss-form-error')).textContent).toBe('The SMS code does not match');
    call.mockResolvedValueOnce({ uid: 9, usr: 'new_owner' });
    fireEvent.click(screen.getByTestId('ss-submit'));
    await waitFor(() => expect(onBack).toHaveBeenCalled());
    const [action, params] = call.mock.calls.at(-1) as [string, Record<string, string>];
    expect(action).toBe('regBindMailboxUsually');
    expect(params).toMatchObject({ usr: 'new_owner', email: 'new.owner@example.com', code: '123456', sn: 'SWNORTH0000101', country: 'DE', channel: '1' });
    expect(takeLoginPrefill()).toEqual({ usr: 'new_owner', pwd: 'Solar_2026' });
  });

  it('Chinese: phone and email tabs; a phone code needs a phone first, then the mainland pattern; 90 s countdown', async () => {
    await i18n.changeLanguage('zh_CN');
    try {
      render(<SignupFace onBack={() => undefined} />);
      expect(screen.getByTestId('ss-tab-phone').getAttribute('aria-selected')).toBe('true');
      fireEvent.click(screen.getByTestId('ss-send-code'));
      expect(await screen.findByText('请先输入手机号码')).toBeTruthy();
      type('phone', '23800138000');
      fireEvent.click(screen.getByTestId('ss-send-code'));
      await waitFor(() => expect(screen.queryByText('请先输入手机号码')).toBeNull());
      expect(call).not.toHaveBeenCalled();
      type('phone', '13800138000');
      call.mockResolvedValueOnce(undefined);
      fireEvent.click(screen.getByTestId('ss-send-code'));
      await waitFor(() => expect(screen.getByTestId('ss-send-code').textContent).toMatch(/^(90|89) /));
      expect(call).toHaveBeenCalledWith('sendSmsCodeMobile', { channel: '0', msgType: '0', mobile: '13800138000' });
      // the countdown belongs to the phone the code went to: the email tab, or a corrected phone,
      // can be sent to at once; back to that phone, it still counts down
      fireEvent.click(screen.getByTestId('ss-tab-email'));
      expect(screen.getByTestId('ss-email')).toBeTruthy();
      expect(screen.getByTestId('ss-send-code').textContent).toBe('发送验证码');
      expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(false);
      fireEvent.click(screen.getByTestId('ss-tab-phone'));
      expect(screen.getByTestId('ss-send-code').textContent).toMatch(/^(90|89|88) /);
      type('phone', '13800138001');
      expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(false);
      type('phone', '13800138000');
      expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(true);
    } finally {
      await i18n.changeLanguage('en_US');
    }
  });

  it('the send-code countdown survives leaving the face and coming back, per address (sessionStorage deadline)', async () => {
    render(<SignupFace onBack={() => undefined} />);
    type('email', 'new.owner@example.com');
    call.mockResolvedValueOnce(undefined);
    fireEvent.click(screen.getByTestId('ss-send-code'));
    await waitFor(() => expect(screen.getByTestId('ss-send-code').textContent).toMatch(/Resend in 1(80|79) s/));
    // back to login and into signup again: the face is a new one
    cleanup();
    render(<SignupFace onBack={() => undefined} />);
    type('email', 'New.Owner@example.com ');
    expect(screen.getByTestId('ss-send-code').textContent).toMatch(/Resend in 1(80|79|78) s/);
    expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(true);
    type('email', 'other@example.com');
    expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(false);
    // once the deadline has passed, the same address can be sent to again
    const later = Date.now() + 181_000;
    const now = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      type('email', 'new.owner@example.com');
      expect((screen.getByTestId('ss-send-code') as HTMLButtonElement).disabled).toBe(false);
      expect(codeDeadline(codeTarget('signup', 'email', 'new.owner@example.com'))).toBeUndefined();
    } finally {
      now.mockRestore();
    }
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('a field-error row keeps its height when a fixed value clears the message, so the submit button does not move', async () => {
    // jsdom has no layout: a row with a message is two lines (44 px) tall, an empty one 24 px
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('sw-field-error') ? (this.textContent ? 44 : 24) : 0;
    });
    try {
      render(<SignupFace onBack={() => undefined} />);
      const input = screen.getByTestId('ss-usr');
      const row = screen.getByTestId('ss-usr-error');
      type('usr', 'a');
      fireEvent.blur(input);
      await waitFor(() => expect(row.textContent).not.toBe(''));
      expect(row.style.minHeight).toBe('44px');
      type('usr', 'new_owner');
      fireEvent.blur(input);
      await waitFor(() => expect(row.textContent).toBe(''));
      expect(row.getAttribute('role')).toBeNull();
      expect(row.style.minHeight).toBe('44px');
    } finally {
      height.mockRestore();
    }
  });
});
