/**
 * The rechargeRemedy page's model (issue 14): the list's address-bar state, its wire parameters,
 * money in minor units shown in the order's currency, and the remedy form's checks. The states an
 * order may move to come from the protocol's one table (RECHARGE_TRANSITIONS).
 */
import {
  RECHARGE_REASON_MAX,
  RECHARGE_REASON_MIN,
  rechargeTargets,
  type RechargeOrderStatus,
} from '@sunwatch/protocol';

// The list state, wire parameters, money and colours are shared with rechargeRecord (features/shared/recharge).
export {
  RECHARGE_LIST_SPEC,
  RECHARGE_PAGE_SIZES,
  STATUS_COLORS,
  formatMoney,
  rechargeListParams,
  type RechargeListState,
} from '../shared/recharge/format';

/** The states the remedy dialog offers for an order in `status` (none: no remedy possible). */
export function remedyOptions(status: RechargeOrderStatus): readonly RechargeOrderStatus[] {
  return rechargeTargets(status);
}

/** The remedy form's error (a key of this page's texts), or undefined when it may be sent. */
export function remedyFormError(
  v: { status?: RechargeOrderStatus | undefined; reason: string },
  from: RechargeOrderStatus,
) {
  if (!v.status || !rechargeTargets(from).includes(v.status)) return 'remedy.pickStatus';
  const reason = v.reason.trim();
  if (reason.length === 0) return 'remedy.reasonRequired';
  if (reason.length < RECHARGE_REASON_MIN || reason.length > RECHARGE_REASON_MAX) return 'remedy.reasonLength';
  return undefined;
}
