/**
 * The edit form of a datalogger (spec §3 Datalogger, §5): its fields as text, read from the
 * details (queryCollectorDetail), checked with the protocol's rules (longitude −180…180,
 * latitude −90…90, prices ≥ 0, rated power > 0, timezone of the spec's list, currency of the
 * spec's list, collection frequency and heartbeat 10…3600 s), and only the changed fields sent
 * (editCollectorEs: omitted = unchanged, so an untouched configuration is not re-sent to the
 * datalogger). Rated power, install date and currency are required (spec §5) once any plant
 * datum is changed: a datalogger never given plant data can still get an alias.
 */
import {
  CURRENCIES,
  installDateSchema,
  latitudeSchema,
  longitudeSchema,
  priceSchema,
  ratedPowerSchema,
  ruleErrorKey,
  timezoneSchema,
  type Catalogue,
  type CollectorDetail,
  type ParamsOf,
} from '@sunwatch/protocol';

export interface EditForm {
  alias: string;
  country: string;
  province: string;
  city: string;
  county: string;
  town: string;
  address: string;
  lon: string;
  lat: string;
  nominalPower: string;
  installDate: string;
  installer: string;
  currency: string;
  buyProfit: string;
  sellProfit: string;
  useProfit: string;
  genProfit: string;
  timezone: string;
  datFetch: string;
  heartbeat: string;
}
export type EditField = keyof EditForm;
export type EditErrors = Partial<Record<EditField, string>>;

const PLANT_FIELDS: readonly EditField[] = [
  'nominalPower',
  'installDate',
  'installer',
  'currency',
  'buyProfit',
  'sellProfit',
  'useProfit',
  'genProfit',
];
const PRICE_FIELDS = ['buyProfit', 'sellProfit', 'useProfit', 'genProfit'] as const;

const num = (v: number | null | undefined, zeroIsBlank = false) =>
  v === null || v === undefined || (zeroIsBlank && v === 0) ? '' : String(v);

export function formFromDetail(d: CollectorDetail): EditForm {
  return {
    alias: d.alias,
    country: d.address.country,
    province: d.address.province,
    city: d.address.city,
    county: d.address.county,
    town: d.address.town,
    address: d.address.address,
    lon: num(d.address.lon),
    lat: num(d.address.lat),
    nominalPower: num(d.nominalPower, true),
    installDate: d.installDate.slice(0, 10),
    installer: d.installer,
    currency: d.profit.currency,
    buyProfit: num(d.profit.buyProfit),
    sellProfit: num(d.profit.sellProfit),
    useProfit: num(d.profit.useProfit),
    genProfit: num(d.profit.genProfit),
    timezone: String(d.timezone),
    datFetch: num(d.datFetch, true),
    heartbeat: num(d.heartbeat, true),
  };
}

export function changedFields(form: EditForm, initial: EditForm): EditField[] {
  return (Object.keys(form) as EditField[]).filter((k) => form[k].trim() !== initial[k].trim());
}

function intervalError(v: string): string | undefined {
  const t = v.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isInteger(n) && n >= 10 && n <= 3600 ? undefined : 'dataloggers:edit.intervalRange';
}

/** The message key of each changed field that fails its rule. */
export function editErrors(form: EditForm, initial: EditForm): EditErrors {
  const changed = new Set(changedFields(form, initial));
  const out: EditErrors = {};
  const check = (k: EditField, key: string | undefined) => {
    if (key && !out[k]) out[k] = key;
  };
  if (changed.has('lon') || changed.has('lat')) {
    if (form.lon.trim() !== '' || form.lat.trim() !== '') {
      check('lon', ruleErrorKey(longitudeSchema, form.lon.trim()));
      check('lat', ruleErrorKey(latitudeSchema, form.lat.trim()));
    }
  }
  if (PLANT_FIELDS.some((k) => changed.has(k))) {
    check('nominalPower', ruleErrorKey(ratedPowerSchema, form.nominalPower.trim()));
    check('installDate', ruleErrorKey(installDateSchema, form.installDate.trim()));
    if (!(CURRENCIES as readonly string[]).includes(form.currency)) check('currency', 'rules.currency.required');
    for (const k of PRICE_FIELDS) if (form[k].trim() !== '') check(k, ruleErrorKey(priceSchema, form[k].trim()));
  }
  if (changed.has('timezone')) check('timezone', ruleErrorKey(timezoneSchema, form.timezone));
  if (changed.has('datFetch')) check('datFetch', intervalError(form.datFetch));
  if (changed.has('heartbeat')) check('heartbeat', intervalError(form.heartbeat));
  return out;
}

export type EditParams = ParamsOf<Catalogue['editCollectorEs']>;

const WIRE: Record<EditField, string> = {
  alias: 'alias',
  country: 'address.country',
  province: 'address.province',
  city: 'address.city',
  county: 'address.county',
  town: 'address.town',
  address: 'address.address',
  lon: 'address.lon',
  lat: 'address.lat',
  nominalPower: 'nominalPower',
  installDate: 'installDate',
  installer: 'installer',
  currency: 'profit.currency',
  buyProfit: 'profit.buyProfit',
  sellProfit: 'profit.sellProfit',
  useProfit: 'profit.useProfit',
  genProfit: 'profit.genProfit',
  timezone: 'timezone',
  datFetch: 'datFetch',
  heartbeat: 'heartbeat',
};
const INTEGER_FIELDS: readonly EditField[] = ['timezone', 'datFetch', 'heartbeat'];

/** editCollectorEs parameters: the PN and the changed fields only (undefined when nothing changed). */
export function editParams(pn: string, form: EditForm, initial: EditForm): EditParams | undefined {
  const changed = changedFields(form, initial);
  if (changed.length === 0) return undefined;
  const out: Record<string, string | number> = { pn };
  for (const k of changed) {
    const v = form[k].trim();
    out[WIRE[k]] = INTEGER_FIELDS.includes(k) && v !== '' ? Number(v) : v;
  }
  return out as EditParams;
}
