import { normalizeLocale, type Locale } from '@sunwatch/protocol';

/**
 * The texts of a verification code (mail subject and body, SMS), in the 11 languages. `{code}` is
 * the code, `{min}` its validity in minutes.
 */
interface CodeText {
  subject: string;
  body: string;
  ignore: string;
  sms: string;
}

const TEXTS: Record<Locale, CodeText> = {
  en_US: {
    subject: 'Your Sunwatch verification code',
    body: 'Your verification code is {code}. It is valid for {min} minute(s).',
    ignore: 'If you did not request it, ignore this message; nobody can use it without access to this mailbox.',
    sms: '[Sunwatch] Your verification code is {code}, valid for {min} minute(s).',
  },
  zh_CN: {
    subject: 'Sunwatch 验证码',
    body: '您的验证码是 {code}，{min} 分钟内有效。',
    ignore: '如果这不是您本人的操作，请忽略本邮件。',
    sms: '【Sunwatch】您的验证码是 {code}，{min} 分钟内有效。',
  },
  id_ID: {
    subject: 'Kode verifikasi Sunwatch Anda',
    body: 'Kode verifikasi Anda adalah {code}. Berlaku selama {min} menit.',
    ignore: 'Jika Anda tidak memintanya, abaikan pesan ini.',
    sms: '[Sunwatch] Kode verifikasi Anda {code}, berlaku {min} menit.',
  },
  it_IT: {
    subject: 'Il tuo codice di verifica Sunwatch',
    body: 'Il tuo codice di verifica è {code}. È valido per {min} minuto/i.',
    ignore: 'Se non lo hai richiesto, ignora questo messaggio.',
    sms: '[Sunwatch] Il tuo codice di verifica è {code}, valido {min} minuto/i.',
  },
  de_DE: {
    subject: 'Ihr Sunwatch-Bestätigungscode',
    body: 'Ihr Bestätigungscode lautet {code}. Er ist {min} Minute(n) gültig.',
    ignore: 'Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese Nachricht.',
    sms: '[Sunwatch] Ihr Bestätigungscode lautet {code}, gültig {min} Minute(n).',
  },
  fr_FR: {
    subject: 'Votre code de vérification Sunwatch',
    body: 'Votre code de vérification est {code}. Il est valable {min} minute(s).',
    ignore: "Si vous ne l'avez pas demandé, ignorez ce message.",
    sms: '[Sunwatch] Votre code de vérification est {code}, valable {min} minute(s).',
  },
  ru_RU: {
    subject: 'Ваш код подтверждения Sunwatch',
    body: 'Ваш код подтверждения: {code}. Он действителен {min} мин.',
    ignore: 'Если вы его не запрашивали, просто проигнорируйте это сообщение.',
    sms: '[Sunwatch] Ваш код подтверждения {code}, действителен {min} мин.',
  },
  tr_TR: {
    subject: 'Sunwatch doğrulama kodunuz',
    body: 'Doğrulama kodunuz {code}. {min} dakika geçerlidir.',
    ignore: 'Bu isteği siz yapmadıysanız bu mesajı dikkate almayın.',
    sms: '[Sunwatch] Doğrulama kodunuz {code}, {min} dakika geçerli.',
  },
  uz_UZ: {
    subject: 'Sunwatch tasdiqlash kodingiz',
    body: 'Tasdiqlash kodingiz: {code}. U {min} daqiqa amal qiladi.',
    ignore: "Agar siz so'ramagan bo'lsangiz, bu xabarni e'tiborsiz qoldiring.",
    sms: '[Sunwatch] Tasdiqlash kodingiz {code}, {min} daqiqa amal qiladi.',
  },
  nl_NL: {
    subject: 'Uw Sunwatch-verificatiecode',
    body: 'Uw verificatiecode is {code}. Deze is {min} minuut/minuten geldig.',
    ignore: 'Als u deze niet heeft aangevraagd, negeer dan dit bericht.',
    sms: '[Sunwatch] Uw verificatiecode is {code}, {min} minuut/minuten geldig.',
  },
  pl_PL: {
    subject: 'Twój kod weryfikacyjny Sunwatch',
    body: 'Twój kod weryfikacyjny to {code}. Jest ważny przez {min} min.',
    ignore: 'Jeśli to nie Ty o niego prosiłeś, zignoruj tę wiadomość.',
    sms: '[Sunwatch] Twój kod weryfikacyjny to {code}, ważny {min} min.',
  },
};

export const CODE_TEXT_LOCALES = Object.keys(TEXTS) as Locale[];

const fill = (s: string, code: string, min: number) => s.replace('{code}', code).replace('{min}', String(min));

export function codeMail(locale: string, code: string, validityMs: number): { subject: string; text: string; html: string } {
  const t = TEXTS[normalizeLocale(locale) ?? 'en_US'];
  const min = Math.round(validityMs / 60_000);
  const body = fill(t.body, code, min);
  return {
    subject: t.subject,
    text: `${body}\n\n${t.ignore}\n`,
    html: `<p>${body.replace(code, `<b style="font-size:20px;letter-spacing:3px">${code}</b>`)}</p><p>${t.ignore}</p>`,
  };
}

export function codeSms(locale: string, code: string, validityMs: number): string {
  return fill(TEXTS[normalizeLocale(locale) ?? 'en_US'].sms, code, Math.round(validityMs / 60_000));
}
