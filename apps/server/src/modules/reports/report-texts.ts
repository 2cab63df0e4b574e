import { DEFAULT_LOCALE, LOCALES, type Locale, type ReportPeriod } from '@sunwatch/protocol';

/**
 * The texts of a report workbook (titles, sheet names, column headers) in the 11 languages of
 * spec §1. Units stay symbols (kWh) and currencies their codes.
 */
export interface ReportTexts {
  plant: string;
  device: string;
  period: string;
  generatedAt: string;
  periods: Record<ReportPeriod, string>;
  /** First column by row kind: hour/day, month, year. */
  day: string;
  month: string;
  year: string;
  generated: string;
  charged: string;
  discharged: string;
  sold: string;
  bought: string;
  used: string;
  income: string;
  total: string;
  summary: string;
  samples: string;
  noData: string;
}

const T: Record<Locale, ReportTexts> = {
  en_US: {
    plant: 'Plant', device: 'Device', period: 'Period', generatedAt: 'Created',
    periods: { daily: 'Daily report', monthly: 'Monthly report', yearly: 'Yearly report', total: 'Total report', custom: 'Custom report' },
    day: 'Date', month: 'Month', year: 'Year',
    generated: 'Energy generated', charged: 'Energy charged', discharged: 'Energy discharged', sold: 'Energy fed in (sold)',
    bought: 'Energy bought', used: 'Energy used', income: 'Income', total: 'Total', summary: 'Report', samples: 'Samples',
    noData: 'No data',
  },
  zh_CN: {
    plant: '电站', device: '设备', period: '周期', generatedAt: '生成时间',
    periods: { daily: '日报表', monthly: '月报表', yearly: '年报表', total: '总报表', custom: '自定义报表' },
    day: '日期', month: '月份', year: '年份',
    generated: '发电量', charged: '充电量', discharged: '放电量', sold: '上网电量（售电）',
    bought: '购电量', used: '用电量', income: '收益', total: '合计', summary: '报表', samples: '采样数据',
    noData: '无数据',
  },
  id_ID: {
    plant: 'Pembangkit', device: 'Perangkat', period: 'Periode', generatedAt: 'Dibuat',
    periods: { daily: 'Laporan harian', monthly: 'Laporan bulanan', yearly: 'Laporan tahunan', total: 'Laporan total', custom: 'Laporan khusus' },
    day: 'Tanggal', month: 'Bulan', year: 'Tahun',
    generated: 'Energi dihasilkan', charged: 'Energi diisi', discharged: 'Energi dilepas', sold: 'Energi dijual ke jaringan',
    bought: 'Energi dibeli', used: 'Energi dipakai', income: 'Pendapatan', total: 'Total', summary: 'Laporan', samples: 'Sampel',
    noData: 'Tidak ada data',
  },
  it_IT: {
    plant: 'Impianto', device: 'Dispositivo', period: 'Periodo', generatedAt: 'Creato',
    periods: { daily: 'Report giornaliero', monthly: 'Report mensile', yearly: 'Report annuale', total: 'Report totale', custom: 'Report personalizzato' },
    day: 'Data', month: 'Mese', year: 'Anno',
    generated: 'Energia prodotta', charged: 'Energia caricata', discharged: 'Energia scaricata', sold: 'Energia immessa (venduta)',
    bought: 'Energia acquistata', used: 'Energia consumata', income: 'Ricavo', total: 'Totale', summary: 'Report', samples: 'Campioni',
    noData: 'Nessun dato',
  },
  de_DE: {
    plant: 'Anlage', device: 'Gerät', period: 'Zeitraum', generatedAt: 'Erstellt',
    periods: { daily: 'Tagesbericht', monthly: 'Monatsbericht', yearly: 'Jahresbericht', total: 'Gesamtbericht', custom: 'Benutzerdefinierter Bericht' },
    day: 'Datum', month: 'Monat', year: 'Jahr',
    generated: 'Erzeugte Energie', charged: 'Geladene Energie', discharged: 'Entladene Energie', sold: 'Eingespeiste Energie (verkauft)',
    bought: 'Bezogene Energie', used: 'Verbrauchte Energie', income: 'Ertrag', total: 'Summe', summary: 'Bericht', samples: 'Messwerte',
    noData: 'Keine Daten',
  },
  fr_FR: {
    plant: 'Centrale', device: 'Appareil', period: 'Période', generatedAt: 'Créé le',
    periods: { daily: 'Rapport journalier', monthly: 'Rapport mensuel', yearly: 'Rapport annuel', total: 'Rapport total', custom: 'Rapport personnalisé' },
    day: 'Date', month: 'Mois', year: 'Année',
    generated: 'Énergie produite', charged: 'Énergie chargée', discharged: 'Énergie déchargée', sold: 'Énergie injectée (vendue)',
    bought: 'Énergie achetée', used: 'Énergie consommée', income: 'Revenu', total: 'Total', summary: 'Rapport', samples: 'Échantillons',
    noData: 'Aucune donnée',
  },
  ru_RU: {
    plant: 'Станция', device: 'Устройство', period: 'Период', generatedAt: 'Создан',
    periods: { daily: 'Суточный отчёт', monthly: 'Месячный отчёт', yearly: 'Годовой отчёт', total: 'Итоговый отчёт', custom: 'Отчёт за период' },
    day: 'Дата', month: 'Месяц', year: 'Год',
    generated: 'Выработано энергии', charged: 'Заряжено энергии', discharged: 'Разряжено энергии', sold: 'Отдано в сеть (продано)',
    bought: 'Куплено энергии', used: 'Потреблено энергии', income: 'Доход', total: 'Итого', summary: 'Отчёт', samples: 'Замеры',
    noData: 'Нет данных',
  },
  tr_TR: {
    plant: 'Santral', device: 'Cihaz', period: 'Dönem', generatedAt: 'Oluşturulma',
    periods: { daily: 'Günlük rapor', monthly: 'Aylık rapor', yearly: 'Yıllık rapor', total: 'Toplam rapor', custom: 'Özel rapor' },
    day: 'Tarih', month: 'Ay', year: 'Yıl',
    generated: 'Üretilen enerji', charged: 'Şarj edilen enerji', discharged: 'Deşarj edilen enerji', sold: 'Şebekeye verilen enerji (satılan)',
    bought: 'Satın alınan enerji', used: 'Tüketilen enerji', income: 'Gelir', total: 'Toplam', summary: 'Rapor', samples: 'Örnekler',
    noData: 'Veri yok',
  },
  uz_UZ: {
    plant: 'Stansiya', device: 'Qurilma', period: 'Davr', generatedAt: 'Yaratilgan',
    periods: { daily: 'Kunlik hisobot', monthly: 'Oylik hisobot', yearly: 'Yillik hisobot', total: 'Umumiy hisobot', custom: 'Maxsus hisobot' },
    day: 'Sana', month: 'Oy', year: 'Yil',
    generated: 'Ishlab chiqarilgan energiya', charged: 'Zaryadlangan energiya', discharged: 'Razryadlangan energiya', sold: 'Tarmoqqa berilgan energiya (sotilgan)',
    bought: 'Sotib olingan energiya', used: 'Isteʼmol qilingan energiya', income: 'Daromad', total: 'Jami', summary: 'Hisobot', samples: 'Oʻlchovlar',
    noData: 'Maʼlumot yoʻq',
  },
  nl_NL: {
    plant: 'Installatie', device: 'Apparaat', period: 'Periode', generatedAt: 'Aangemaakt',
    periods: { daily: 'Dagrapport', monthly: 'Maandrapport', yearly: 'Jaarrapport', total: 'Totaalrapport', custom: 'Aangepast rapport' },
    day: 'Datum', month: 'Maand', year: 'Jaar',
    generated: 'Opgewekte energie', charged: 'Geladen energie', discharged: 'Ontladen energie', sold: 'Teruggeleverde energie (verkocht)',
    bought: 'Ingekochte energie', used: 'Verbruikte energie', income: 'Opbrengst', total: 'Totaal', summary: 'Rapport', samples: 'Metingen',
    noData: 'Geen gegevens',
  },
  pl_PL: {
    plant: 'Elektrownia', device: 'Urządzenie', period: 'Okres', generatedAt: 'Utworzono',
    periods: { daily: 'Raport dzienny', monthly: 'Raport miesięczny', yearly: 'Raport roczny', total: 'Raport całkowity', custom: 'Raport niestandardowy' },
    day: 'Data', month: 'Miesiąc', year: 'Rok',
    generated: 'Energia wyprodukowana', charged: 'Energia naładowana', discharged: 'Energia rozładowana', sold: 'Energia oddana do sieci (sprzedana)',
    bought: 'Energia kupiona', used: 'Energia zużyta', income: 'Przychód', total: 'Suma', summary: 'Raport', samples: 'Próbki',
    noData: 'Brak danych',
  },
};

export function reportTexts(locale: string): ReportTexts {
  return (LOCALES as readonly string[]).includes(locale) ? T[locale as Locale] : T[DEFAULT_LOCALE];
}

export const REPORT_TEXTS = T;
