import { normalizeLocale, type Locale } from '@sunwatch/protocol';

/**
 * The security notice sent to the OLD recovery address when an account's e-mail or phone is
 * changed or removed (editAccount, editSubAccount, editDist, bind/unbind), in the 11 languages.
 * `{usr}` the account, `{date}` when (UTC), `{ip}` the address the change came from.
 */
export interface ContactChangeText {
  subject: string;
  emailChanged: string;
  emailRemoved: string;
  notYou: string;
  smsPhoneChanged: string;
  smsPhoneRemoved: string;
  smsNotYou: string;
}

export const CONTACT_CHANGE_TEXTS: Record<Locale, ContactChangeText> = {
  en_US: {
    subject: 'Sunwatch security notice: your recovery e-mail was changed',
    emailChanged:
      'The recovery e-mail of your Sunwatch account {usr} was changed on {date} from {ip}. This address no longer receives its verification codes.',
    emailRemoved:
      'The recovery e-mail of your Sunwatch account {usr} was removed on {date} from {ip}. This address no longer receives its verification codes.',
    notYou:
      'If it was not you, sign in at once, change your password and bind your address again, or contact your installer or support.',
    smsPhoneChanged: '[Sunwatch] The recovery phone of account {usr} was changed on {date} from {ip}.',
    smsPhoneRemoved: '[Sunwatch] The recovery phone of account {usr} was removed on {date} from {ip}.',
    smsNotYou: 'Not you? Change your password now and contact support.',
  },
  zh_CN: {
    subject: 'Sunwatch 安全提醒：您的找回邮箱已更改',
    emailChanged: '您的 Sunwatch 账号 {usr} 的找回邮箱已于 {date} 从 {ip} 更改，此邮箱将不再接收该账号的验证码。',
    emailRemoved: '您的 Sunwatch 账号 {usr} 的找回邮箱已于 {date} 从 {ip} 解除绑定，此邮箱将不再接收该账号的验证码。',
    notYou: '如果这不是您本人的操作，请立即登录并修改密码、重新绑定邮箱，或联系您的安装商或客服。',
    smsPhoneChanged: '【Sunwatch】账号 {usr} 的找回手机号已于 {date} 从 {ip} 更改。',
    smsPhoneRemoved: '【Sunwatch】账号 {usr} 的找回手机号已于 {date} 从 {ip} 解除绑定。',
    smsNotYou: '如非本人操作，请立即修改密码并联系客服。',
  },
  id_ID: {
    subject: 'Pemberitahuan keamanan Sunwatch: e-mail pemulihan Anda diubah',
    emailChanged:
      'E-mail pemulihan akun Sunwatch {usr} diubah pada {date} dari {ip}. Alamat ini tidak lagi menerima kode verifikasinya.',
    emailRemoved:
      'E-mail pemulihan akun Sunwatch {usr} dihapus pada {date} dari {ip}. Alamat ini tidak lagi menerima kode verifikasinya.',
    notYou:
      'Jika itu bukan Anda, segera masuk, ubah kata sandi dan ikat kembali alamat Anda, atau hubungi instalatur atau dukungan.',
    smsPhoneChanged: '[Sunwatch] Nomor telepon pemulihan akun {usr} diubah pada {date} dari {ip}.',
    smsPhoneRemoved: '[Sunwatch] Nomor telepon pemulihan akun {usr} dihapus pada {date} dari {ip}.',
    smsNotYou: 'Bukan Anda? Segera ubah kata sandi dan hubungi dukungan.',
  },
  it_IT: {
    subject: 'Avviso di sicurezza Sunwatch: la tua e-mail di recupero è stata cambiata',
    emailChanged:
      "L'e-mail di recupero del tuo account Sunwatch {usr} è stata cambiata il {date} da {ip}. Questo indirizzo non riceve più i suoi codici di verifica.",
    emailRemoved:
      "L'e-mail di recupero del tuo account Sunwatch {usr} è stata rimossa il {date} da {ip}. Questo indirizzo non riceve più i suoi codici di verifica.",
    notYou:
      "Se non sei stato tu, accedi subito, cambia la password e collega di nuovo il tuo indirizzo, oppure contatta l'installatore o l'assistenza.",
    smsPhoneChanged: "[Sunwatch] Il telefono di recupero dell'account {usr} è stato cambiato il {date} da {ip}.",
    smsPhoneRemoved: "[Sunwatch] Il telefono di recupero dell'account {usr} è stato rimosso il {date} da {ip}.",
    smsNotYou: "Non sei stato tu? Cambia subito la password e contatta l'assistenza.",
  },
  de_DE: {
    subject: 'Sunwatch-Sicherheitshinweis: Ihre Wiederherstellungs-E-Mail wurde geändert',
    emailChanged:
      'Die Wiederherstellungs-E-Mail Ihres Sunwatch-Kontos {usr} wurde am {date} von {ip} aus geändert. Diese Adresse erhält keine Bestätigungscodes des Kontos mehr.',
    emailRemoved:
      'Die Wiederherstellungs-E-Mail Ihres Sunwatch-Kontos {usr} wurde am {date} von {ip} aus entfernt. Diese Adresse erhält keine Bestätigungscodes des Kontos mehr.',
    notYou:
      'Wenn Sie das nicht waren, melden Sie sich sofort an, ändern Sie Ihr Passwort und binden Sie Ihre Adresse erneut, oder wenden Sie sich an Ihren Installateur oder den Support.',
    smsPhoneChanged:
      '[Sunwatch] Die Wiederherstellungs-Telefonnummer des Kontos {usr} wurde am {date} von {ip} aus geändert.',
    smsPhoneRemoved:
      '[Sunwatch] Die Wiederherstellungs-Telefonnummer des Kontos {usr} wurde am {date} von {ip} aus entfernt.',
    smsNotYou: 'Nicht Sie? Ändern Sie sofort Ihr Passwort und wenden Sie sich an den Support.',
  },
  fr_FR: {
    subject: 'Avis de sécurité Sunwatch : votre e-mail de récupération a été modifié',
    emailChanged:
      "L'e-mail de récupération de votre compte Sunwatch {usr} a été modifié le {date} depuis {ip}. Cette adresse ne reçoit plus ses codes de vérification.",
    emailRemoved:
      "L'e-mail de récupération de votre compte Sunwatch {usr} a été supprimé le {date} depuis {ip}. Cette adresse ne reçoit plus ses codes de vérification.",
    notYou:
      "Si ce n'était pas vous, connectez-vous immédiatement, changez votre mot de passe et liez de nouveau votre adresse, ou contactez votre installateur ou le support.",
    smsPhoneChanged: '[Sunwatch] Le téléphone de récupération du compte {usr} a été modifié le {date} depuis {ip}.',
    smsPhoneRemoved: '[Sunwatch] Le téléphone de récupération du compte {usr} a été supprimé le {date} depuis {ip}.',
    smsNotYou: "Ce n'était pas vous ? Changez votre mot de passe et contactez le support.",
  },
  ru_RU: {
    subject: 'Уведомление безопасности Sunwatch: резервный e-mail изменён',
    emailChanged:
      'Резервный e-mail вашей учётной записи Sunwatch {usr} был изменён {date} с адреса {ip}. Этот адрес больше не получает её коды подтверждения.',
    emailRemoved:
      'Резервный e-mail вашей учётной записи Sunwatch {usr} был удалён {date} с адреса {ip}. Этот адрес больше не получает её коды подтверждения.',
    notYou:
      'Если это были не вы, немедленно войдите, смените пароль и снова привяжите свой адрес или обратитесь к установщику или в поддержку.',
    smsPhoneChanged: '[Sunwatch] Резервный телефон учётной записи {usr} изменён {date} с адреса {ip}.',
    smsPhoneRemoved: '[Sunwatch] Резервный телефон учётной записи {usr} удалён {date} с адреса {ip}.',
    smsNotYou: 'Это не вы? Срочно смените пароль и обратитесь в поддержку.',
  },
  tr_TR: {
    subject: 'Sunwatch güvenlik bildirimi: kurtarma e-postanız değiştirildi',
    emailChanged:
      'Sunwatch hesabınız {usr} için kurtarma e-postası {date} tarihinde {ip} adresinden değiştirildi. Bu adres artık hesabın doğrulama kodlarını almayacak.',
    emailRemoved:
      'Sunwatch hesabınız {usr} için kurtarma e-postası {date} tarihinde {ip} adresinden kaldırıldı. Bu adres artık hesabın doğrulama kodlarını almayacak.',
    notYou:
      'Bu siz değilseniz hemen oturum açın, şifrenizi değiştirin ve adresinizi yeniden bağlayın ya da kurulumcunuza veya desteğe başvurun.',
    smsPhoneChanged: '[Sunwatch] {usr} hesabının kurtarma telefonu {date} tarihinde {ip} adresinden değiştirildi.',
    smsPhoneRemoved: '[Sunwatch] {usr} hesabının kurtarma telefonu {date} tarihinde {ip} adresinden kaldırıldı.',
    smsNotYou: 'Siz değil misiniz? Şifrenizi hemen değiştirin ve desteğe başvurun.',
  },
  uz_UZ: {
    subject: "Sunwatch xavfsizlik xabari: tiklash e-pochtangiz o'zgartirildi",
    emailChanged:
      "Sunwatch hisobingiz {usr} tiklash e-pochtasi {date} da {ip} manzilidan o'zgartirildi. Bu manzil endi hisobning tasdiqlash kodlarini olmaydi.",
    emailRemoved:
      'Sunwatch hisobingiz {usr} tiklash e-pochtasi {date} da {ip} manzilidan olib tashlandi. Bu manzil endi hisobning tasdiqlash kodlarini olmaydi.',
    notYou:
      "Agar bu siz bo'lmasangiz, darhol tizimga kiring, parolni o'zgartiring va manzilingizni qayta bog'lang yoki o'rnatuvchingiz yoki qo'llab-quvvatlash xizmatiga murojaat qiling.",
    smsPhoneChanged: "[Sunwatch] {usr} hisobining tiklash telefoni {date} da {ip} manzilidan o'zgartirildi.",
    smsPhoneRemoved: '[Sunwatch] {usr} hisobining tiklash telefoni {date} da {ip} manzilidan olib tashlandi.',
    smsNotYou: "Siz emasmisiz? Parolni darhol o'zgartiring va qo'llab-quvvatlashga murojaat qiling.",
  },
  nl_NL: {
    subject: 'Sunwatch-beveiligingsmelding: uw herstel-e-mailadres is gewijzigd',
    emailChanged:
      'Het herstel-e-mailadres van uw Sunwatch-account {usr} is op {date} gewijzigd vanaf {ip}. Dit adres ontvangt de verificatiecodes van het account niet meer.',
    emailRemoved:
      'Het herstel-e-mailadres van uw Sunwatch-account {usr} is op {date} verwijderd vanaf {ip}. Dit adres ontvangt de verificatiecodes van het account niet meer.',
    notYou:
      'Was u dit niet? Meld u direct aan, wijzig uw wachtwoord en koppel uw adres opnieuw, of neem contact op met uw installateur of de ondersteuning.',
    smsPhoneChanged: '[Sunwatch] Het hersteltelefoonnummer van account {usr} is op {date} gewijzigd vanaf {ip}.',
    smsPhoneRemoved: '[Sunwatch] Het hersteltelefoonnummer van account {usr} is op {date} verwijderd vanaf {ip}.',
    smsNotYou: 'Was u dit niet? Wijzig direct uw wachtwoord en neem contact op met de ondersteuning.',
  },
  pl_PL: {
    subject: 'Powiadomienie bezpieczeństwa Sunwatch: zmieniono Twój e-mail odzyskiwania',
    emailChanged:
      'E-mail odzyskiwania Twojego konta Sunwatch {usr} został zmieniony {date} z adresu {ip}. Ten adres nie otrzymuje już kodów weryfikacyjnych konta.',
    emailRemoved:
      'E-mail odzyskiwania Twojego konta Sunwatch {usr} został usunięty {date} z adresu {ip}. Ten adres nie otrzymuje już kodów weryfikacyjnych konta.',
    notYou:
      'Jeśli to nie Ty, natychmiast się zaloguj, zmień hasło i ponownie powiąż swój adres lub skontaktuj się z instalatorem albo pomocą techniczną.',
    smsPhoneChanged: '[Sunwatch] Telefon odzyskiwania konta {usr} został zmieniony {date} z adresu {ip}.',
    smsPhoneRemoved: '[Sunwatch] Telefon odzyskiwania konta {usr} został usunięty {date} z adresu {ip}.',
    smsNotYou: 'To nie Ty? Natychmiast zmień hasło i skontaktuj się z pomocą techniczną.',
  },
};

interface Facts {
  usr: string;
  date: string;
  ip: string;
  removed: boolean;
}

const textOf = (locale: string) => CONTACT_CHANGE_TEXTS[normalizeLocale(locale) ?? 'en_US'];
const fill = (s: string, f: Facts) => s.replace('{usr}', f.usr).replace('{date}', f.date).replace('{ip}', f.ip);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The mail to the old recovery e-mail. */
export function contactChangeMail(locale: string, f: Facts): { subject: string; text: string; html: string } {
  const t = textOf(locale);
  const body = fill(f.removed ? t.emailRemoved : t.emailChanged, f);
  return {
    subject: t.subject,
    text: `${body}\n\n${t.notYou}\n`,
    html: `<p>${esc(body)}</p><p><b>${esc(t.notYou)}</b></p>`,
  };
}

/** The SMS to the old recovery phone. */
export function contactChangeSms(locale: string, f: Facts): string {
  const t = textOf(locale);
  return `${fill(f.removed ? t.smsPhoneRemoved : t.smsPhoneChanged, f)} ${t.smsNotYou}`;
}
