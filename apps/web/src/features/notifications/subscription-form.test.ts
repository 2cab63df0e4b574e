import { describe, expect, it } from 'vitest';
import type { EmailPushRow } from '@sunwatch/protocol';
import { emptySubscription, fieldOfError, subscriptionErrors, subscriptionFormOf, subscriptionParams } from './subscription-form';

describe('subscription form', () => {
  it('a new subscription starts with the kind of mail of its page', () => {
    expect(emptySubscription('alarm', 'de_DE')).toMatchObject({ level: [1, 2], report: [], language: 'de_DE', enable: true });
    expect(emptySubscription('report', 'en_US')).toMatchObject({ level: [], report: ['daily'] });
  });

  it('checks the e-mail with the protocol rule, needs a plant and something to send', () => {
    const ok = { ...emptySubscription('alarm', 'en_US'), email: 'ops@example.com', pid: [3] };
    expect(subscriptionErrors(ok)).toEqual({});
    expect(subscriptionErrors({ ...ok, email: '' }).email).toBe('rules.email.required');
    expect(subscriptionErrors({ ...ok, email: 'not-a-mail' }).email).toBe('rules.email.format');
    expect(subscriptionErrors({ ...ok, pid: [] }).pid).toBe('notifications:rule.plantsRequired');
    expect(subscriptionErrors({ ...ok, pid: Array.from({ length: 501 }, (_, i) => i + 1) }).pid).toBe('notifications:rule.plantsTooMany');
    expect(subscriptionErrors({ ...ok, level: [], report: [] })).toEqual({
      level: 'notifications:rule.nothingToSend',
      report: 'notifications:rule.nothingToSend',
    });
    expect(subscriptionErrors({ ...ok, level: [], report: ['yearly'] })).toEqual({});
  });

  it('sends every field in the wire form, lists sorted and without duplicates', () => {
    expect(
      subscriptionParams({ email: ' a@b.co ', pid: [9, 2, 9], level: [2, 0], report: ['yearly', 'daily'], language: 'fr_FR', enable: false }),
    ).toEqual({ email: 'a@b.co', pid: '2,9', level: '0,2', report: 'daily,yearly', language: 'fr_FR', enable: false });
    expect(subscriptionParams({ email: 'a@b.co', pid: [1], level: [], report: ['monthly'], language: 'en_US', enable: true })).toMatchObject({
      level: '',
      report: 'monthly',
    });
  });

  it('reads a subscription of the wire back into the form, and maps server errors to fields', () => {
    const row: EmailPushRow = {
      id: 4,
      email: 'x@y.io',
      plants: [{ pid: 7, pname: 'Roof' }],
      level: [2],
      report: ['daily'],
      language: 'zh_CN',
      enable: true,
      createTime: '',
      updateTime: '',
    };
    expect(subscriptionFormOf(row)).toEqual({ email: 'x@y.io', pid: [7], level: [2], report: ['daily'], language: 'zh_CN', enable: true });
    expect([20, 14, 260, 13].map(fieldOfError)).toEqual(['email', 'email', 'pid', undefined]);
  });
});
