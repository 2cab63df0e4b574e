import { LOCALES } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { CONTACT_CHANGE_TEXTS, contactChangeMail, contactChangeSms, type ContactChangeText } from './contact-change-texts.js';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('contact change notice texts', () => {
  it('every locale has every text, with the placeholders of the English one, translated', () => {
    const en = CONTACT_CHANGE_TEXTS.en_US;
    for (const locale of LOCALES) {
      const t = CONTACT_CHANGE_TEXTS[locale];
      for (const key of Object.keys(en) as Array<keyof ContactChangeText>) {
        expect(t[key].trim(), `${locale}.${key}`).not.toBe('');
        expect(placeholders(t[key]), `${locale}.${key}`).toEqual(placeholders(en[key]));
        if (locale !== 'en_US') expect(t[key], `${locale}.${key}`).not.toBe(en[key]);
      }
    }
  });

  it('fills account, date and IP; escapes the HTML part; unknown locales fall back to English', () => {
    const facts = { usr: 'a<b', date: '2026-11-28 13:00:00 UTC', ip: '198.51.100.7', removed: false };
    const mail = contactChangeMail('xx_XX', facts);
    expect(mail.subject).toBe(CONTACT_CHANGE_TEXTS.en_US.subject);
    expect(mail.text).toContain('a<b');
    expect(mail.text).toContain('198.51.100.7');
    expect(mail.html).toContain('a&lt;b');
    expect(mail.html).not.toContain('a<b');
    expect(contactChangeSms('de_DE', { ...facts, removed: true })).toContain('entfernt');
  });
});
