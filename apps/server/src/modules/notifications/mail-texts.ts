import { normalizeLocale, type Locale } from '@sunwatch/protocol';

/**
 * The texts of the alarm mails in the 11 languages (spec §1). `{name}` placeholders are filled by
 * `fill`. Device fault descriptions come from the protocol definitions (`translateDeviceText`),
 * not from here; the offline alarm has no definition and is `offline` below.
 */
export interface MailTexts {
  /** ALARM_LEVEL 0..3. */
  levels: [warning: string, error: string, fault: string, offline: string];
  /** Subject of a mail with one new alarm: {level}, {desc}, {plant}. */
  subjectRaised: string;
  /** Subject of a mail with one ended alarm. */
  subjectCleared: string;
  /** Subject of a digest: {count} alarm events, {plants} plants. */
  subjectDigest: string;
  /** First line of every alarm mail. */
  intro: string;
  colType: string;
  colDescription: string;
  colDevice: string;
  colPlant: string;
  colStarted: string;
  colEnded: string;
  colStatus: string;
  /** Status of an alarm still active / ended. */
  active: string;
  cleared: string;
  /** Link to one alarm / to the alarm list. */
  viewAlarm: string;
  viewAll: string;
  /** "… and {count} more" under a shortened digest. */
  more: string;
  /** Why the recipient gets it: {email}. */
  footer: string;
  /** Description of the offline alarm (code 263). */
  offline: string;
}

const en_US: MailTexts = {
  levels: ['Warning', 'Error', 'Fault', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Cleared: {desc} – {plant}',
  subjectDigest: '{count} alarm events at {plants} plant(s)',
  intro: 'The following alarms occurred at the plants you subscribed to:',
  colType: 'Type',
  colDescription: 'Description',
  colDevice: 'Device',
  colPlant: 'Plant',
  colStarted: 'Occurred',
  colEnded: 'Ended',
  colStatus: 'Status',
  active: 'Active',
  cleared: 'Cleared',
  viewAlarm: 'View alarm',
  viewAll: 'Open the alarm list',
  more: '… and {count} more',
  footer:
    'You receive this e-mail because {email} is subscribed to alarm notifications. You can change the subscription under Settings → Alarm e-mails.',
  offline: 'Datalogger offline',
};

const zh_CN: MailTexts = {
  levels: ['警告', '错误', '故障', '离线'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: '已恢复：{desc} – {plant}',
  subjectDigest: '{plants} 个电站发生 {count} 条告警事件',
  intro: '您订阅的电站发生了以下告警：',
  colType: '类型',
  colDescription: '描述',
  colDevice: '设备',
  colPlant: '电站',
  colStarted: '发生时间',
  colEnded: '结束时间',
  colStatus: '状态',
  active: '未恢复',
  cleared: '已恢复',
  viewAlarm: '查看告警',
  viewAll: '打开告警列表',
  more: '…… 另有 {count} 条',
  footer: '您收到此邮件是因为 {email} 订阅了告警通知。您可以在“设置 → 告警邮件”中修改订阅。',
  offline: '数据采集器离线',
};

const id_ID: MailTexts = {
  levels: ['Peringatan', 'Kesalahan', 'Gangguan', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Pulih: {desc} – {plant}',
  subjectDigest: '{count} kejadian alarm di {plants} pembangkit',
  intro: 'Alarm berikut terjadi di pembangkit yang Anda langgani:',
  colType: 'Jenis',
  colDescription: 'Deskripsi',
  colDevice: 'Perangkat',
  colPlant: 'Pembangkit',
  colStarted: 'Terjadi',
  colEnded: 'Berakhir',
  colStatus: 'Status',
  active: 'Aktif',
  cleared: 'Pulih',
  viewAlarm: 'Lihat alarm',
  viewAll: 'Buka daftar alarm',
  more: '… dan {count} lainnya',
  footer:
    'Anda menerima e-mail ini karena {email} berlangganan notifikasi alarm. Anda dapat mengubah langganan di Pengaturan → E-mail alarm.',
  offline: 'Datalogger offline',
};

const it_IT: MailTexts = {
  levels: ['Avviso', 'Errore', 'Guasto', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Risolto: {desc} – {plant}',
  subjectDigest: '{count} eventi di allarme in {plants} impianti',
  intro: 'Si sono verificati i seguenti allarmi negli impianti a cui sei iscritto:',
  colType: 'Tipo',
  colDescription: 'Descrizione',
  colDevice: 'Dispositivo',
  colPlant: 'Impianto',
  colStarted: 'Verificato',
  colEnded: 'Terminato',
  colStatus: 'Stato',
  active: 'Attivo',
  cleared: 'Risolto',
  viewAlarm: "Visualizza l'allarme",
  viewAll: "Apri l'elenco degli allarmi",
  more: '… e altri {count}',
  footer:
    "Ricevi questa e-mail perché {email} è iscritto alle notifiche di allarme. Puoi modificare l'iscrizione in Impostazioni → E-mail di allarme.",
  offline: 'Datalogger offline',
};

const de_DE: MailTexts = {
  levels: ['Warnung', 'Fehler', 'Störung', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Behoben: {desc} – {plant}',
  subjectDigest: '{count} Alarmereignisse in {plants} Anlage(n)',
  intro: 'In den Anlagen, die Sie abonniert haben, sind folgende Alarme aufgetreten:',
  colType: 'Art',
  colDescription: 'Beschreibung',
  colDevice: 'Gerät',
  colPlant: 'Anlage',
  colStarted: 'Aufgetreten',
  colEnded: 'Beendet',
  colStatus: 'Status',
  active: 'Aktiv',
  cleared: 'Behoben',
  viewAlarm: 'Alarm anzeigen',
  viewAll: 'Alarmliste öffnen',
  more: '… und {count} weitere',
  footer:
    'Sie erhalten diese E-Mail, weil {email} Alarmbenachrichtigungen abonniert hat. Das Abonnement ändern Sie unter Einstellungen → Alarm-E-Mails.',
  offline: 'Datenlogger offline',
};

const fr_FR: MailTexts = {
  levels: ['Avertissement', 'Erreur', 'Défaut', 'Hors ligne'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Résolu : {desc} – {plant}',
  subjectDigest: '{count} événements d’alarme sur {plants} centrale(s)',
  intro: 'Les alarmes suivantes se sont produites sur les centrales auxquelles vous êtes abonné :',
  colType: 'Type',
  colDescription: 'Description',
  colDevice: 'Appareil',
  colPlant: 'Centrale',
  colStarted: 'Survenue',
  colEnded: 'Terminée',
  colStatus: 'État',
  active: 'Active',
  cleared: 'Résolue',
  viewAlarm: 'Voir l’alarme',
  viewAll: 'Ouvrir la liste des alarmes',
  more: '… et {count} de plus',
  footer:
    'Vous recevez cet e-mail car {email} est abonné aux notifications d’alarme. Vous pouvez modifier l’abonnement sous Paramètres → E-mails d’alarme.',
  offline: 'Enregistreur hors ligne',
};

const ru_RU: MailTexts = {
  levels: ['Предупреждение', 'Ошибка', 'Неисправность', 'Не в сети'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Устранено: {desc} – {plant}',
  subjectDigest: 'Событий аварий: {count}, станций: {plants}',
  intro: 'На станциях, на которые вы подписаны, произошли следующие аварии:',
  colType: 'Тип',
  colDescription: 'Описание',
  colDevice: 'Устройство',
  colPlant: 'Станция',
  colStarted: 'Возникла',
  colEnded: 'Завершена',
  colStatus: 'Статус',
  active: 'Активна',
  cleared: 'Устранена',
  viewAlarm: 'Открыть аварию',
  viewAll: 'Открыть список аварий',
  more: '… и ещё {count}',
  footer:
    'Вы получили это письмо, потому что адрес {email} подписан на уведомления об авариях. Изменить подписку можно в разделе «Настройки → Письма об авариях».',
  offline: 'Регистратор данных не в сети',
};

const tr_TR: MailTexts = {
  levels: ['Uyarı', 'Hata', 'Arıza', 'Çevrimdışı'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Giderildi: {desc} – {plant}',
  subjectDigest: '{plants} santralde {count} alarm olayı',
  intro: 'Abone olduğunuz santrallerde aşağıdaki alarmlar oluştu:',
  colType: 'Tür',
  colDescription: 'Açıklama',
  colDevice: 'Cihaz',
  colPlant: 'Santral',
  colStarted: 'Oluşma',
  colEnded: 'Bitiş',
  colStatus: 'Durum',
  active: 'Etkin',
  cleared: 'Giderildi',
  viewAlarm: 'Alarmı görüntüle',
  viewAll: 'Alarm listesini aç',
  more: '… ve {count} tane daha',
  footer:
    'Bu e-postayı {email} alarm bildirimlerine abone olduğu için alıyorsunuz. Aboneliği Ayarlar → Alarm e-postaları bölümünden değiştirebilirsiniz.',
  offline: 'Veri kaydedici çevrimdışı',
};

const uz_UZ: MailTexts = {
  levels: ['Ogohlantirish', 'Xato', 'Nosozlik', 'Oflayn'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Bartaraf etildi: {desc} – {plant}',
  subjectDigest: '{plants} ta stansiyada {count} ta signal hodisasi',
  intro: 'Siz obuna boʻlgan stansiyalarda quyidagi signallar yuz berdi:',
  colType: 'Turi',
  colDescription: 'Tavsif',
  colDevice: 'Qurilma',
  colPlant: 'Stansiya',
  colStarted: 'Yuz bergan',
  colEnded: 'Tugagan',
  colStatus: 'Holat',
  active: 'Faol',
  cleared: 'Bartaraf etildi',
  viewAlarm: 'Signalni koʻrish',
  viewAll: 'Signallar roʻyxatini ochish',
  more: '… va yana {count} ta',
  footer:
    'Bu xatni {email} signal bildirishnomalariga obuna boʻlgani uchun olyapsiz. Obunani Sozlamalar → Signal xatlari boʻlimida oʻzgartirishingiz mumkin.',
  offline: 'Maʼlumot yigʻgich oflayn',
};

const nl_NL: MailTexts = {
  levels: ['Waarschuwing', 'Fout', 'Storing', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Opgelost: {desc} – {plant}',
  subjectDigest: '{count} alarmgebeurtenissen bij {plants} installatie(s)',
  intro: 'Bij de installaties waarop u geabonneerd bent, zijn de volgende alarmen opgetreden:',
  colType: 'Soort',
  colDescription: 'Omschrijving',
  colDevice: 'Apparaat',
  colPlant: 'Installatie',
  colStarted: 'Opgetreden',
  colEnded: 'Beëindigd',
  colStatus: 'Status',
  active: 'Actief',
  cleared: 'Opgelost',
  viewAlarm: 'Alarm bekijken',
  viewAll: 'Alarmlijst openen',
  more: '… en nog {count}',
  footer:
    'U ontvangt deze e-mail omdat {email} is geabonneerd op alarmmeldingen. U wijzigt het abonnement onder Instellingen → Alarm-e-mails.',
  offline: 'Datalogger offline',
};

const pl_PL: MailTexts = {
  levels: ['Ostrzeżenie', 'Błąd', 'Awaria', 'Offline'],
  subjectRaised: '[{level}] {desc} – {plant}',
  subjectCleared: 'Usunięto: {desc} – {plant}',
  subjectDigest: 'Zdarzenia alarmowe: {count}, instalacje: {plants}',
  intro: 'W instalacjach, które subskrybujesz, wystąpiły następujące alarmy:',
  colType: 'Typ',
  colDescription: 'Opis',
  colDevice: 'Urządzenie',
  colPlant: 'Instalacja',
  colStarted: 'Wystąpienie',
  colEnded: 'Zakończenie',
  colStatus: 'Stan',
  active: 'Aktywny',
  cleared: 'Usunięty',
  viewAlarm: 'Pokaż alarm',
  viewAll: 'Otwórz listę alarmów',
  more: '… i {count} więcej',
  footer:
    'Otrzymujesz tę wiadomość, ponieważ adres {email} subskrybuje powiadomienia o alarmach. Subskrypcję zmienisz w Ustawienia → E-maile alarmowe.',
  offline: 'Rejestrator danych offline',
};

export const MAIL_TEXTS: Readonly<Record<Locale, MailTexts>> = {
  en_US,
  zh_CN,
  id_ID,
  it_IT,
  de_DE,
  fr_FR,
  ru_RU,
  tr_TR,
  uz_UZ,
  nl_NL,
  pl_PL,
};

export function mailTexts(locale: string | null | undefined): MailTexts {
  return MAIL_TEXTS[normalizeLocale(locale) ?? 'en_US'];
}

/** Replaces `{name}` by `values[name]`. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
