/**
 * Acceleration orders (issue 15; spec §3 "Acceleration order", §9 "Acceleration"): an account buys
 * a faster collection interval for a Wi-Fi datalogger. Declared once for the server, the web and
 * the tests: the packages (intervals), the types, the storage times, the states, and THE price
 * function. docs/money/acceleration.md explains every figure.
 *
 * Spec §9: the price depends on the parameter count, the frequency, the load count and, for
 * history data, the storage time; there is no validity limit; the payment is not refundable or
 * changeable; Wi-Fi module dataloggers only.
 */

/** The collection interval a datalogger has until it is accelerated (seconds; `dataloggers.collect_interval` default). */
export const DEFAULT_COLLECT_INTERVAL_S = 300;

/**
 * The packages on sale: the interval bought (seconds) and its frequency factor in permille of the
 * 60-second price. Faster than the default by 5×, 10× and 30×; the factor grows slower than the
 * sample count (the platform's cost per sample falls with volume).
 */
export const ACCELERATION_PACKAGES = [
  { interval: 60, factorPermille: 1000 },
  { interval: 30, factorPermille: 1500 },
  { interval: 10, factorPermille: 2500 },
] as const;
export type AccelerationInterval = (typeof ACCELERATION_PACKAGES)[number]['interval'];
export const ACCELERATION_INTERVALS: readonly AccelerationInterval[] = ACCELERATION_PACKAGES.map((p) => p.interval);

export function isAccelerationInterval(n: number): n is AccelerationInterval {
  return (ACCELERATION_INTERVALS as readonly number[]).includes(n);
}

/**
 * What is accelerated (spec §3): `flow` the energy-flow data (live power figures of the plant's
 * flow diagram), `history` the detail/history data (every parameter kept as curves, for the
 * storage time bought).
 */
export const ACCELERATION_TYPES = ['flow', 'history'] as const;
export type AccelerationType = (typeof ACCELERATION_TYPES)[number];

/** Storage times a history acceleration may keep its fast samples for (months). Flow: none (0). */
export const ACCELERATION_STORAGE_MONTHS = [1, 3, 6, 12] as const;
export type AccelerationStorage = (typeof ACCELERATION_STORAGE_MONTHS)[number];

/** The currency acceleration is priced in (spec §9: amounts shown in RMB). */
export const ACCELERATION_CURRENCY = 'CNY';

/** Price per datalogger of a 60-second package, one load, up to one parameter block; minor units (fen). */
export const ACCELERATION_UNIT_MINOR: Readonly<Record<AccelerationType, number>> = { flow: 9600, history: 14400 };
/** Parameters per block: each block beyond the first adds ACCELERATION_BLOCK_PERMILLE. */
export const ACCELERATION_PARAMS_PER_BLOCK = 32;
export const ACCELERATION_BLOCK_PERMILLE = 500;
/** Each load beyond the first adds this much (permille of the one-load price). */
export const ACCELERATION_LOAD_PERMILLE = 250;
/** History storage: per month, per parameter block, minor units. */
export const ACCELERATION_STORAGE_MINOR_PER_MONTH = 800;
/** Inputs beyond these are refused (err 13): a datalogger carries at most this many loads / parameters. */
export const ACCELERATION_MAX_LOADS = 256;
export const ACCELERATION_MAX_PARAMETERS = 20_000;

export interface AccelerationPriceInput {
  type: AccelerationType;
  interval: AccelerationInterval;
  /** Parameters the datalogger's devices report (0 while it has none: priced as one block). */
  parameters: number;
  /** The datalogger's load count (0 is priced as 1). */
  loads: number;
  /** Months of history storage; ignored (0) for `flow`. */
  storageMonths: number;
}

export interface AccelerationPrice {
  /** Parameter blocks charged (≥ 1). */
  blocks: number;
  /** Loads charged (≥ 1). */
  loads: number;
  /** The collection part: unit × frequency × blocks × loads, minor units. */
  collectionMinor: number;
  /** The storage part (history only), minor units. */
  storageMinor: number;
  /** collection + storage, minor units. */
  totalMinor: number;
  currency: string;
}

/** Integer division rounding half up (non-negative operands). */
function divRound(n: bigint, d: bigint): bigint {
  return (n * 2n + d) / (2n * d);
}

/**
 * THE acceleration price (spec §9), in integer minor units (fen), deterministic:
 *
 *   blocks     = max(1, ceil(parameters / 32))
 *   loads      = max(1, loads)
 *   collection = round(unit[type] × factor[interval]/1000 × (1000 + 500·(blocks−1))/1000 × (1000 + 250·(loads−1))/1000)
 *   storage    = history ? 800 × months × blocks : 0
 *   total      = collection + storage
 *
 * One rounding (half up) at the end of the collection part; no floating point anywhere.
 * Throws a RangeError for an unknown interval or storage time, or a negative / too large count.
 */
export function accelerationPrice(input: AccelerationPriceInput): AccelerationPrice {
  const pkg = ACCELERATION_PACKAGES.find((p) => p.interval === input.interval);
  if (!pkg) throw new RangeError(`interval ${input.interval} is not on sale`);
  if (!(ACCELERATION_TYPES as readonly string[]).includes(input.type)) throw new RangeError('type');
  const { parameters, loads: rawLoads } = input;
  if (!Number.isInteger(parameters) || parameters < 0 || parameters > ACCELERATION_MAX_PARAMETERS)
    throw new RangeError('parameters');
  if (!Number.isInteger(rawLoads) || rawLoads < 0 || rawLoads > ACCELERATION_MAX_LOADS) throw new RangeError('loads');
  const history = input.type === 'history';
  if (history && !(ACCELERATION_STORAGE_MONTHS as readonly number[]).includes(input.storageMonths))
    throw new RangeError('storageMonths');
  const blocks = Math.max(1, Math.ceil(parameters / ACCELERATION_PARAMS_PER_BLOCK));
  const loads = Math.max(1, rawLoads);
  const numerator =
    BigInt(ACCELERATION_UNIT_MINOR[input.type]) *
    BigInt(pkg.factorPermille) *
    BigInt(1000 + ACCELERATION_BLOCK_PERMILLE * (blocks - 1)) *
    BigInt(1000 + ACCELERATION_LOAD_PERMILLE * (loads - 1));
  const collectionMinor = Number(divRound(numerator, 1_000_000_000n));
  const storageMinor = history ? ACCELERATION_STORAGE_MINOR_PER_MONTH * input.storageMonths * blocks : 0;
  return {
    blocks,
    loads,
    collectionMinor,
    storageMinor,
    totalMinor: collectionMinor + storageMinor,
    currency: ACCELERATION_CURRENCY,
  };
}

/**
 * Order states: `unpaid` (created, awaiting payment), `paid` (payment confirmed: the interval
 * change is queued), `failed` (the payment failed), `expired` (never paid within the payment
 * window). Paid is final: not refundable or changeable (spec §9).
 */
export const ACCELERATION_ORDER_STATUSES = ['unpaid', 'paid', 'failed', 'expired'] as const;
export type AccelerationOrderStatus = (typeof ACCELERATION_ORDER_STATUSES)[number];

/** An unpaid order lapses after this long (ms). */
export const ACCELERATION_PAYMENT_WINDOW_MS = 2 * 60 * 60 * 1000;

/**
 * The interval change a paid order causes: `pending` (waiting for the datalogger: offline, or no
 * ack yet — retried until it comes online), `applied` (the datalogger acknowledged the new
 * interval; dataloggers.collect_interval updated), `refused` (the datalogger answered the command
 * with an error: a person must look).
 */
export const ACCELERATION_CHANGE_STATUSES = ['pending', 'applied', 'refused'] as const;
export type AccelerationChangeStatus = (typeof ACCELERATION_CHANGE_STATUSES)[number];

/** A pending change is retried this often while the datalogger is offline or silent (ms). */
export const ACCELERATION_RETRY_MS = 3_000;

/** The terms the buyer must accept (spec §9), in the order the dialog lists them (keys of the web's texts). */
export const ACCELERATION_TERMS = ['noRefund', 'noChange', 'wifiOnly', 'noValidityLimit'] as const;
