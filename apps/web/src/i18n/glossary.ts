/**
 * The product's glossary: ONE term per concept per language. Every menu label, page title and
 * header text that names a concept uses that term (glossary.test.ts checks the locale files), and
 * no text of the web's locale files uses a rejected synonym (a German "Projekt" for the plant).
 *
 * `term` is the word translators use (singular, as a dictionary entry); `stems` are the
 * lower-case pieces every inflected form of it contains (plural, case endings, compounds);
 * `avoid` are synonyms and older names that must not appear (lower case, substring match).
 */
import type { Locale } from '@sunwatch/protocol';

export const CONCEPTS = ['plant', 'device', 'datalogger', 'account', 'subAccount', 'alarm', 'firmware'] as const;
export type Concept = (typeof CONCEPTS)[number];

export interface GlossaryTerm {
  term: string;
  stems: readonly string[];
  avoid: readonly string[];
}

export type Glossary = Record<Concept, GlossaryTerm>;

const g = (term: string, stems: readonly string[], avoid: readonly string[] = []): GlossaryTerm => ({ term, stems, avoid });

export const GLOSSARY: Record<Locale, Glossary> = {
  en_US: {
    plant: g('plant', ['plant'], ['project', 'power station', 'power plant']),
    device: g('device', ['device'], ['equipment']),
    datalogger: g('datalogger', ['datalogger'], ['data logger', 'collector']),
    account: g('account', ['account'], []),
    subAccount: g('sub-account', ['sub-account'], ['subaccount', 'browse account', 'visitor account']),
    alarm: g('alarm', ['alarm'], []),
    firmware: g('firmware', ['firmware'], []),
  },
  zh_CN: {
    plant: g('电站', ['电站'], ['项目', '工程']),
    device: g('设备', ['设备'], ['装置']),
    datalogger: g('数据采集器', ['数据采集器'], ['采集棒', '数采']),
    account: g('账号', ['账号'], ['账户', '帐号', '帐户']),
    subAccount: g('子账号', ['子账号'], ['浏览账号']),
    alarm: g('告警', ['告警'], ['报警', '警报']),
    firmware: g('固件', ['固件'], []),
  },
  de_DE: {
    plant: g('Anlage', ['anlage'], ['projekt', 'kraftwerk']),
    device: g('Gerät', ['gerät'], []),
    datalogger: g('Datenlogger', ['datenlogger'], ['datensammler', 'kollektor', 'collector']),
    account: g('Konto', ['kont'], ['account', 'benutzerkonto']),
    subAccount: g('Unterkonto', ['unterkont'], ['subkonto', 'unteraccount']),
    alarm: g('Alarm', ['alarm'], []),
    firmware: g('Firmware', ['firmware'], []),
  },
  fr_FR: {
    plant: g('centrale', ['centrale'], ['projet']),
    device: g('appareil', ['appareil'], ['dispositif', 'équipement']),
    datalogger: g('enregistreur de données', ['enregistreur'], ['collecteur', 'datalogger']),
    account: g('compte', ['compte'], []),
    subAccount: g('sous-compte', ['sous-compte'], []),
    alarm: g('alarme', ['alarme'], []),
    firmware: g('micrologiciel', ['micrologiciel'], ['firmware']),
  },
  id_ID: {
    plant: g('pembangkit', ['pembangkit'], ['proyek']),
    device: g('perangkat', ['perangkat'], []),
    datalogger: g('datalogger', ['datalogger'], ['pengumpul data', 'kolektor']),
    account: g('akun', ['akun'], []),
    subAccount: g('subakun', ['subakun'], ['sub-akun']),
    alarm: g('alarm', ['alarm'], []),
    firmware: g('firmware', ['firmware'], []),
  },
  it_IT: {
    plant: g('impianto', ['impiant'], ['progett']),
    device: g('dispositivo', ['dispositiv'], ['apparecchi']),
    datalogger: g('datalogger', ['datalogger'], ['collettore']),
    account: g('account', ['account'], []),
    subAccount: g('sottoaccount', ['sottoaccount'], []),
    alarm: g('allarme', ['allarm'], []),
    firmware: g('firmware', ['firmware'], []),
  },
  nl_NL: {
    plant: g('installatie', ['installatie'], ['project']),
    device: g('apparaat', ['appara'], []),
    datalogger: g('datalogger', ['datalogger'], ['collector']),
    account: g('account', ['account'], []),
    subAccount: g('subaccount', ['subaccount'], []),
    alarm: g('alarm', ['alarm'], []),
    firmware: g('firmware', ['firmware'], []),
  },
  pl_PL: {
    plant: g('elektrownia', ['elektrowni'], ['projekt']),
    device: g('urządzenie', ['urządze'], []),
    datalogger: g('rejestrator danych', ['rejestrator'], ['datalogger', 'kolektor']),
    account: g('konto', ['kont'], []),
    subAccount: g('konto podrzędne', ['podrzędn'], ['subkonto']),
    alarm: g('alarm', ['alarm'], []),
    firmware: g('oprogramowanie układowe', ['oprogramowani'], ['firmware']),
  },
  ru_RU: {
    plant: g('станция', ['станц'], ['проект']),
    device: g('устройство', ['устройств'], ['оборудован']),
    datalogger: g('регистратор данных', ['регистратор'], ['коллектор', 'даталоггер']),
    account: g('аккаунт', ['аккаунт'], ['учётн', 'учетн']),
    subAccount: g('субаккаунт', ['субаккаунт'], ['подаккаунт']),
    alarm: g('авария', ['авари'], ['тревог']),
    firmware: g('прошивка', ['прошивк'], ['микропрограмм']),
  },
  tr_TR: {
    plant: g('santral', ['santral'], ['proje']),
    device: g('cihaz', ['cihaz'], ['aygıt']),
    datalogger: g('veri kaydedici', ['kaydedici'], ['datalogger', 'toplayıcı']),
    account: g('hesap', ['hesa'], []),
    subAccount: g('alt hesap', ['alt hesa'], []),
    alarm: g('alarm', ['alarm'], []),
    firmware: g('ürün yazılımı', ['ürün yazılım'], ['firmware']),
  },
  uz_UZ: {
    plant: g('stansiya', ['stansiya'], ['loyiha']),
    device: g('qurilma', ['qurilma'], []),
    datalogger: g('maʼlumot yigʻuvchi', ['yigʻuvchi'], ['datalogger']),
    account: g('hisob', ['hisob'], []),
    subAccount: g('quyi hisob', ['quyi hisob'], []),
    alarm: g('signal', ['signal'], ['alarm']),
    firmware: g('proshivka', ['proshivka'], ['firmware']),
  },
};

/**
 * The menu labels, page titles and header texts that name a concept (`namespace:key`), with
 * the concepts they name. Each must contain the term of each of its concepts.
 */
export const TITLE_CONCEPTS: Record<string, readonly Concept[]> = {
  // menu labels (sider and settings menus)
  'menu:items.myDevices': ['device'],
  'menu:items.device': ['device'],
  'menu:items.deviceno': ['device'],
  'menu:items.project': ['plant'],
  'menu:items.account': ['account'],
  'menu:items.alarm': ['alarm'],
  'menu:items.datalogger': ['datalogger'],
  'menu:items.log': ['datalogger'],
  'menu:items.factoryAccount': ['account'],
  'menu:items.deviceFunction': ['device'],
  'menu:items.firmware': ['firmware'],
  'menu:items.defaultFirmware': ['firmware'],
  'menu:items.firmwareLibrary': ['firmware'],
  'menu:items.UpgFirmware': ['firmware'],
  'menu:items.alarmform': ['alarm'],
  'menu:items.browseAccount': ['subAccount'],
  'menu:groups.accountManagement': ['account'],
  'menu:groups.dataloggerManagement': ['datalogger'],
  'menu:groups.deviceManagement': ['device'],
  'menu:groups.datalogger': ['datalogger'],
  'menu:groups.alarmSettings': ['alarm'],
  // page titles
  'overview:myDevices': ['device'],
  'projects:title': ['plant'],
  'devices:list.title': ['device'],
  'devices:detail.title': ['device'],
  'devices:tabs.info': ['device'],
  // header and page headings naming a concept
  'overview:plants': ['plant'],
  'overview:devices': ['device'],
  'overview:dataloggers': ['datalogger'],
  'overview:alarms': ['alarm'],
  'common:roles.0': ['plant'],
  'common:roles.5': ['plant'],
  'common:readOnly.text': ['plant'],
};
