/**
 * Flow cards: the SIM cards of cellular dataloggers (spec §3 Datalogger "flow card", §4 "Flow
 * card", §5 "Batch recharge must use cards of the same type, load count and region/platform state",
 * §9 the 2G notice). Declared once for the server (queryGprsCollector, the card-status job,
 * recharge orders), the web (the rechargePay page) and the simulator. docs/money/flow-cards.md.
 */
import type { ErrorCode } from './errors.js';
import { CARD_STATUSES, RECHARGE_AREAS, type CardStatus, type RechargeArea } from './recharge.js';

/** Radio access of a card's datalogger (2G ones get the §9 replacement notice). */
export const NETWORK_TYPES = ['2G', '3G', '4G', 'LTE-M', 'NB-IoT', '5G'] as const;
export type NetworkType = (typeof NETWORK_TYPES)[number];

export function isNetworkType(s: string): s is NetworkType {
  return (NETWORK_TYPES as readonly string[]).includes(s);
}

/**
 * Communication methods (lower case) of dataloggers that carry a flow card; a datalogger with a
 * CCID or a network type is cellular whatever its method says.
 */
export const CELLULAR_COMM_METHODS = ['gprs', '2g', '3g', '4g', 'lte', 'lte-m', 'nb-iot', '5g'] as const;

/** Networks the carriers are switching off: their dataloggers should move to 4G (spec §9). */
export const SUNSET_NETWORKS: readonly NetworkType[] = ['2G'];

/**
 * Card type: what the carrier sells packages for. A package bought for one type cannot be applied
 * to another, hence the §5 batch rule:
 * - `standard`: a plug-in (removable) IoT SIM, monthly package;
 * - `embedded`: a soldered MFF2 chip SIM, same packages as standard but its own carrier platform;
 * - `pooled`: a card sharing a fleet data pool (the limit is the pool's share);
 * - `esim`: a remotely provisioned eUICC profile.
 */
export const CARD_TYPES = ['standard', 'embedded', 'pooled', 'esim'] as const;
export type CardType = (typeof CARD_TYPES)[number];

export function isCardType(s: string): s is CardType {
  return (CARD_TYPES as readonly string[]).includes(s);
}

/** A card is `warning` once its expiry is this close (days) … */
export const CARD_WARNING_DAYS = 30;
/** … or once this share of its package's traffic is used (percent). */
export const CARD_WARNING_USED_PCT = 80;
/**
 * After expiry the carrier suspends the card but keeps the number for this many days (`overdue`:
 * still rechargeable, the credit delayed 1–14 days, spec §9); after it the card is `expired`
 * (cancelled by the carrier: it cannot be recharged, the datalogger needs a new card).
 */
export const CARD_GRACE_DAYS = 90;

const DAY_MS = 86_400_000;

export interface CardStatusInput {
  /** Expiry instant (ms), null when unknown. */
  expireAt: number | null;
  usedKb: number;
  /** Package traffic limit (KB); 0 = unknown or unlimited (usage then never warns). */
  limitKb: number;
  now: number;
  /** When given, an empty CCID makes the card `unknown`. */
  ccid?: string;
}

/**
 * The card's status from its expiry and usage (spec §4 "Flow card"):
 * - `unknown`: no CCID, or no expiry known;
 * - `expired`: past expiry by more than CARD_GRACE_DAYS;
 * - `overdue`: past expiry, within the grace;
 * - `warning`: expiring within CARD_WARNING_DAYS, or ≥ CARD_WARNING_USED_PCT % of the limit used
 *   (a card that used all its traffic is also `warning`: it is still valid, only throttled);
 * - `normal`: otherwise.
 */
export function deriveCardStatus(c: CardStatusInput): CardStatus {
  if (c.ccid !== undefined && c.ccid.trim() === '') return 'unknown';
  if (c.expireAt == null || !Number.isFinite(c.expireAt)) return 'unknown';
  if (c.now > c.expireAt + CARD_GRACE_DAYS * DAY_MS) return 'expired';
  if (c.now > c.expireAt) return 'overdue';
  if (c.expireAt - c.now <= CARD_WARNING_DAYS * DAY_MS) return 'warning';
  if (c.limitKb > 0 && c.usedKb * 100 >= c.limitKb * CARD_WARNING_USED_PCT) return 'warning';
  return 'normal';
}

/** `dataloggers.card_status` code of a status (CARD_STATUSES index). */
export function cardStatusCode(s: CardStatus): number {
  return CARD_STATUSES.indexOf(s);
}

/** Used share of the package (0..100, one decimal); null when the limit is unknown. */
export function cardUsedPct(usedKb: number, limitKb: number): number | null {
  if (!(limitKb > 0)) return null;
  return Math.round((Math.max(0, usedKb) * 1000) / limitKb) / 10;
}

/** Share (0..1) of the validity window elapsed at `now` (activation → expiry), null if unknown. */
export function cardValidityElapsed(activatedAt: number | null, expireAt: number | null, now: number): number | null {
  if (activatedAt == null || expireAt == null || expireAt <= activatedAt) return null;
  return Math.min(1, Math.max(0, (now - activatedAt) / (expireAt - activatedAt)));
}

/** The extra flow-card keys of a queryGprsCollector row (`gprs.*`, additive to the vendor's). */
export interface FlowCardFields {
  ccid: string;
  /** CARD_STATUSES index, derived at read time. */
  card: number;
  imsi: string;
  /** Expiry day yyyy-mm-dd in the datalogger's time zone ('' unknown). */
  expire: string;
  /** Traffic used, MB (vendor key). */
  traffic: number;
  /** Carrier (operator) name. */
  operator: string;
  /** Package name. */
  package: string;
  usedKb: number;
  /** 0 = unknown. */
  limitKb: number;
  /** NETWORK_TYPES or ''. */
  network: string;
  /** CARD_TYPES or ''. */
  cardType: string;
  /** RECHARGE_AREAS or ''. */
  area: string;
  /** Activation day yyyy-mm-dd ('' unknown). */
  activated: string;
  /** Activation and expiry instants (ms; 0 unknown) for the validity bar. */
  activatedAt: number;
  expireAt: number;
  /** CARD_STATUSES name of `card`. */
  status: CardStatus;
}

/** What the batch rule looks at for one card. */
export interface RechargeCard {
  pn: string;
  ccid: string;
  cardType: string;
  load: number;
  area: string;
  status: CardStatus;
}

/** Most cards in one recharge order. */
export const RECHARGE_BATCH_MAX = 256;

/** Why a batch cannot be recharged together (spec §5). */
export const RECHARGE_BATCH_REASONS = [
  'empty',
  'too_many',
  'duplicate',
  'no_ccid',
  'not_rechargeable',
  'mixed_type',
  'mixed_load',
  'mixed_area',
  'mixed_state',
] as const;
export type RechargeBatchReason = (typeof RECHARGE_BATCH_REASONS)[number];

/**
 * The error code the server answers for each reason (spec §8 catalogue): missing parameter,
 * over the limit, duplicate datalogger number, invalid CCID, invalid GPRS card (a cancelled or
 * unknown card), and `rejected` (8) for a batch that mixes what §5 says must match.
 */
export const RECHARGE_BATCH_ERRORS: Readonly<Record<RechargeBatchReason, ErrorCode>> = {
  empty: 7,
  too_many: 13,
  duplicate: 1029,
  no_ccid: 1042,
  not_rechargeable: 1030,
  mixed_type: 8,
  mixed_load: 8,
  mixed_area: 8,
  mixed_state: 8,
};

export interface RechargeBatchProblem {
  reason: RechargeBatchReason;
  /** The error code the server answers (RECHARGE_BATCH_ERRORS). */
  err: ErrorCode;
  /** The first card at fault (for mixed_*, the first that differs from the first card). */
  pn?: string;
}

/**
 * The platform state of a rechargeable card: `active` (normal, warning) or `overdue` (suspended,
 * credit delayed 1–14 days, spec §9). `expired` and `unknown` cards are not rechargeable.
 */
export function cardPlatformState(s: CardStatus): 'active' | 'overdue' | null {
  if (s === 'normal' || s === 'warning') return 'active';
  if (s === 'overdue') return 'overdue';
  return null;
}

/**
 * Spec §5: a batch recharge takes cards of the same type, load count, area (region) and platform
 * state (active or overdue). Null when the batch may be ordered, else the first rule broken,
 * checked in this order: empty, too many, a PN or CCID twice, a card without CCID, a card that
 * cannot be recharged (expired or unknown), then type, load, area, state versus the first card.
 */
export function checkRechargeBatch(cards: readonly RechargeCard[]): RechargeBatchProblem | null {
  const fail = (reason: RechargeBatchReason, pn?: string): RechargeBatchProblem =>
    pn === undefined
      ? { reason, err: RECHARGE_BATCH_ERRORS[reason] }
      : { reason, err: RECHARGE_BATCH_ERRORS[reason], pn };
  if (cards.length === 0) return fail('empty');
  if (cards.length > RECHARGE_BATCH_MAX) return fail('too_many');
  const pns = new Set<string>();
  const ccids = new Set<string>();
  for (const c of cards) {
    const ccid = c.ccid.trim();
    if (pns.has(c.pn) || (ccid !== '' && ccids.has(ccid))) return fail('duplicate', c.pn);
    pns.add(c.pn);
    if (ccid !== '') ccids.add(ccid);
  }
  for (const c of cards) if (c.ccid.trim() === '') return fail('no_ccid', c.pn);
  for (const c of cards) if (cardPlatformState(c.status) === null) return fail('not_rechargeable', c.pn);
  const first = cards[0]!;
  for (const c of cards) if (c.cardType !== first.cardType) return fail('mixed_type', c.pn);
  for (const c of cards) if (c.load !== first.load) return fail('mixed_load', c.pn);
  for (const c of cards) if (c.area !== first.area) return fail('mixed_area', c.pn);
  const state = cardPlatformState(first.status);
  for (const c of cards) if (cardPlatformState(c.status) !== state) return fail('mixed_state', c.pn);
  return null;
}

export function isCardArea(s: string): s is RechargeArea {
  return (RECHARGE_AREAS as readonly string[]).includes(s);
}
