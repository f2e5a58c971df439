import { messages, type ProfileMessageId } from '@filamu/shared/i18n/profile.en';
import { catalogueOf } from '../../lib/i18n.ts';

/** The profile screens' messages (namespace `profile`, decision 0257). */
export const { t: profileT, useT: useProfileT } = catalogueOf<ProfileMessageId>(
  messages,
  () => import('@filamu/shared/i18n/profile.lg'),
);

/** Stands in for a piece of markup inside a message, so the language decides where it goes. */
export const SLOT = '\u0000';
