import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from './locales/en_US/operations.json';
import pl from './locales/pl_PL/operations.json';
import ru from './locales/ru_RU/operations.json';
import zh from './locales/zh_CN/operations.json';

/** Counted texts use i18next plurals: "1 operation", not "1 operations" (issue 10, gap 5). */
describe('plural forms of counted texts', () => {
  const t = async (lng: string) => {
    const i = i18next.createInstance();
    await i.init({
      lng,
      resources: { en_US: { operations: en }, ru_RU: { operations: ru }, pl_PL: { operations: pl }, zh_CN: { operations: zh } },
      defaultNS: 'operations',
      interpolation: { escapeValue: false },
    });
    return (count: number) => i.t('history.total', { count });
  };

  it('English: one and other', async () => {
    const total = await t('en_US');
    expect([total(1), total(2), total(0)]).toEqual(['1 operation', '2 operations', '0 operations']);
  });
  it('Russian: one, few and many', async () => {
    const total = await t('ru_RU');
    expect([total(1), total(3), total(5), total(21), total(22), total(11)]).toEqual([
      '1 операция',
      '3 операции',
      '5 операций',
      '21 операция',
      '22 операции',
      '11 операций',
    ]);
  });
  it('Polish: one, few and many', async () => {
    const total = await t('pl_PL');
    expect([total(1), total(2), total(5), total(22), total(12)]).toEqual([
      '1 operacja',
      '2 operacje',
      '5 operacji',
      '22 operacje',
      '12 operacji',
    ]);
  });
  it('Chinese: one form', async () => {
    expect((await t('zh_CN'))(1)).toBe('共 1 条操作');
  });
});
