import { CheckoutResult } from './result/CheckoutResult.tsx';

/** /checkout/failed: the server's word on the payment, never the address's (docs/decisions/0027). */
export default function CheckoutFailedPage() {
  return <CheckoutResult />;
}
