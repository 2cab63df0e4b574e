/**
 * The checkout the rechargePay page opens for the picked cards: issue 15's CheckoutDialog
 * (features/recharge-checkout, branch s29-payments) once merged. The page takes it as its
 * `checkout` prop (tests pass their own); `DEFAULT_CHECKOUT` is what the route renders with.
 */
import type { ComponentType } from 'react';

export interface CheckoutProps {
  pns: string[];
  open: boolean;
  onClose(): void;
}

export type CheckoutComponent = ComponentType<CheckoutProps>;

/** Undefined until the checkout dialog is merged: the Recharge button then says it is not available. */
export const DEFAULT_CHECKOUT: CheckoutComponent | undefined = undefined;
