/**
 * The plant form (create / edit, spec §2 "Projects", §5 rules): its values, its checks and the
 * wire parameters of addPlant / editPlant. Every rule is the protocol package's (rules.ts); this
 * file only says which field uses which rule. Pure: tested in plant-form.test.ts.
 */
import {
  CURRENCIES,
  TIMEZONE_OFFSETS,
  normalizeCurrency,
  plantFormSchema,
  priceSchema,
  ruleErrorKey,
  ruleErrors,
  type PlantWire,
} from '@sunwatch/protocol';

/** The five tariffs of addPlant / editPlant (`profit.*`), each ≥ 0. */
export const PRICE_FIELDS = ['soldProfit', 'selfProfit', 'purchProfit', 'consProfit', 'feedProfit'] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/** Location fields from the coarsest to the finest (wire `address.*`; `town` is the district). */
export const LOCATION_FIELDS = ['country', 'province', 'city', 'county', 'town'] as const;
export type LocationField = (typeof LOCATION_FIELDS)[number];

export interface PlantFormValues extends Partial<Record<PriceField, string | number | null>>, Partial<Record<LocationField, string>> {
  name: string;
  remark?: string;
  isDefault?: boolean;
  address?: string;
  /** Degrees; empty = not placed. */
  lon?: string | number | null;
  lat?: string | number | null;
  /** Seconds east of UTC. */
  timezone?: number;
  /** kW. */
  nominalPower?: string | number | null;
  /** "YYYY-MM-DD". */
  install?: string;
  installer?: string;
  currency?: string;
  /** Income per kWh generated (the plant figures' income). */
  unitProfit?: string | number | null;
  /** kWh added to the measured total. */
  energyOffset?: string | number | null;
  /** Uploaded image URL (picBig; the server derives the thumbnail). */
  picBig?: string;
  picSmall?: string;
}

export type PlantFormField = keyof PlantFormValues;

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * Rule-message keys of the failing fields (the `rules.*` keys of the protocol package): the
 * protocol's plantFormSchema, blanks read as "not filled in"; a place is both coordinates or
 * none (one alone is "required" on the other); the income per kWh is a price too.
 */
export function plantFormErrors(v: PlantFormValues): Partial<Record<PlantFormField, string>> {
  const filled = (x: unknown) => (blank(x) ? undefined : x);
  const input = {
    name: v.name ?? '',
    nominalPower: v.nominalPower ?? '',
    timezone: v.timezone,
    install: v.install ?? '',
    currency: v.currency ?? '',
    lon: filled(v.lon),
    lat: filled(v.lat),
    ...Object.fromEntries(PRICE_FIELDS.map((f) => [f, filled(v[f])])),
  };
  const out = ruleErrors(plantFormSchema, input) as Partial<Record<PlantFormField, string>>;
  if (blank(v.lon) !== blank(v.lat)) out[blank(v.lon) ? 'lon' : 'lat'] = 'rules.required';
  if (!blank(v.unitProfit)) {
    const key = ruleErrorKey(priceSchema, v.unitProfit);
    if (key) out.unitProfit = key;
  }
  if (!blank(v.energyOffset) && !Number.isFinite(Number(v.energyOffset))) out.energyOffset = 'rules.number.invalid';
  return out;
}

const num = (v: unknown): string | undefined => (blank(v) ? undefined : String(Number(v)));
const text = (v: string | undefined): string | undefined => (v === undefined ? undefined : v.trim());

/**
 * addPlant / editPlant parameters (vendor-actions.md §5: dotted `address.*` and `profit.*`
 * names). Blank optional numbers are left out (unchanged on edit); text fields are sent trimmed
 * (an emptied field clears it). `timezone` only on create: it cannot change afterwards.
 */
export function plantWireParams(v: PlantFormValues, mode: 'create' | 'edit'): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean | undefined> = {
    name: v.name.trim(),
    remark: text(v.remark ?? ''),
    isDefault: v.isDefault ?? false,
    'address.country': text(v.country ?? ''),
    'address.province': text(v.province ?? ''),
    'address.city': text(v.city ?? ''),
    'address.county': text(v.county ?? ''),
    'address.town': text(v.town ?? ''),
    'address.address': text(v.address ?? ''),
    'address.lon': num(v.lon) ?? '',
    'address.lat': num(v.lat) ?? '',
    nominalPower: num(v.nominalPower),
    install: v.install,
    installer: text(v.installer ?? ''),
    'profit.currency': normalizeCurrency(v.currency) ?? v.currency,
    'profit.unitProfit': num(v.unitProfit),
    picBig: v.picBig ?? '',
    picSmall: v.picSmall ?? v.picBig ?? '',
  };
  for (const f of PRICE_FIELDS) out[`profit.${f}`] = num(v[f]);
  if (mode === 'create') out['address.timezone'] = v.timezone;
  return Object.fromEntries(Object.entries(out).filter((e): e is [string, string | number | boolean] => e[1] !== undefined));
}

/**
 * editPlant parameters of an edit: only what differs from the plant as it was (editPlant leaves
 * the rest unchanged and answers 271 when nothing changes).
 */
export function editedParams(before: PlantFormValues, after: PlantFormValues): Record<string, string | number | boolean> {
  const a = plantWireParams(before, 'edit');
  const b = plantWireParams(after, 'edit');
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(b)) if (a[k] !== v) out[k] = v;
  // a number emptied on the form is cleared on the wire ("" = 0 for a price)
  for (const k of Object.keys(a)) if (!(k in b)) out[k] = '';
  return out;
}

/** Whether the energy offset changed (editPlantEnergyOffset is its own call). */
export function energyOffsetChanged(before: string | undefined, after: PlantFormValues['energyOffset']): boolean {
  if (blank(after)) return false;
  return Number(after) !== Number(before ?? 0);
}

/** The form of an existing plant. */
export function plantFormValues(p: PlantWire): PlantFormValues {
  const profit = p.profit as PlantWire['profit'] & Partial<Record<PriceField, string>>;
  const price = (f: PriceField) => (profit[f] !== undefined && profit[f] !== '' ? profit[f] : undefined);
  return {
    name: p.name,
    remark: p.remark,
    isDefault: p.isDefault,
    country: p.address.country,
    province: p.address.province,
    city: p.address.city,
    county: p.address.county,
    town: p.address.town,
    address: p.address.address,
    lon: p.address.lon,
    lat: p.address.lat,
    timezone: p.address.timezone,
    nominalPower: p.nominalPower,
    install: p.install ? p.install.slice(0, 10) : undefined,
    installer: p.installer,
    currency: normalizeCurrency(p.profit.currency) ?? p.profit.currency,
    unitProfit: p.profit.unitProfit,
    energyOffset: p.energyOffset,
    picBig: p.picBig,
    picSmall: p.picSmall,
    ...Object.fromEntries(PRICE_FIELDS.map((f) => [f, price(f)])),
  };
}

/** The browser's own UTC offset rounded to a selectable zone (the form's default). */
export function defaultTimezone(offsetMinutesWest: number = new Date().getTimezoneOffset()): number {
  const east = -offsetMinutesWest * 60;
  return TIMEZONE_OFFSETS.reduce((best, tz) => (Math.abs(tz - east) < Math.abs(best - east) ? tz : best), 0);
}

export const CURRENCY_OPTIONS = CURRENCIES;

/** A coordinate rounded to 6 decimals (≈ 0.1 m), as a map pick is stored. */
export function roundCoordinate(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** Longitude folded into −180..180 (a map pick may come from a wrapped world copy). */
export function wrapLongitude(lon: number): number {
  const w = ((((lon + 180) % 360) + 360) % 360) - 180;
  return w === -180 && lon > 0 ? 180 : w;
}
