import { SUPPORT } from '@filamu/shared';
import { ChatIcon, MailIcon, PhoneIcon } from '../../components/ui/icons.tsx';
import { usePaymentsT } from './messages.ts';

/** WhatsApp, phone and email support, for a payment that needs a person. */
export function SupportContacts() {
  const t = usePaymentsT();
  return (
    <ul className="space-y-2 text-sm">
      <li className="flex items-center gap-2">
        <ChatIcon className="size-4 shrink-0" />
        <a href={SUPPORT.whatsappHref} target="_blank" rel="noreferrer" className="font-semibold underline">
          {t('payments.support.whatsapp')}
        </a>
      </li>
      <li className="flex items-center gap-2">
        <PhoneIcon className="size-4 shrink-0" />
        <a href={SUPPORT.phoneHref} className="underline">
          {SUPPORT.phone}
        </a>
      </li>
      <li className="flex min-w-0 items-center gap-2">
        <MailIcon className="size-4 shrink-0" />
        <a href={`mailto:${SUPPORT.email}`} className="break-all underline">
          {SUPPORT.email}
        </a>
      </li>
    </ul>
  );
}
