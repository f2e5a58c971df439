import { CheckoutResult } from './result/CheckoutResult.tsx';

/** /checkout/success: the server's word on the payment, never the address's (docs/decisions/0027). */
export default function CheckoutSuccessPage() {
  return <CheckoutResult />;
}
