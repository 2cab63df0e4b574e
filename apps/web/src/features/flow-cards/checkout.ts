/**
 * The checkout the rechargePay page opens for the picked cards: issue 15's CheckoutDialog
 * (features/recharge-checkout). The page takes it as its `checkout` prop (tests pass their own);
 * `DEFAULT_CHECKOUT` is what the route renders with.
 */
import type { ComponentType } from 'react';
import { CheckoutDialog } from '../shared/recharge/checkout/CheckoutDialog';

export interface CheckoutProps {
  pns: string[];
  open: boolean;
  onClose(): void;
}

export type CheckoutComponent = ComponentType<CheckoutProps>;

/** The app's checkout dialog (a page given none keeps its Recharge button disabled, saying why). */
export const DEFAULT_CHECKOUT: CheckoutComponent | null = CheckoutDialog;
