import { contracts, type UserProfile } from '@filamu/shared';
import { api } from './api.ts';
import { activateLocale, localeChosenHere, useLocaleStore } from './i18n.ts';
import { useSessionStore } from './session.ts';

/**
 * The account keeps the person's language (decision 0258) so SMS, push and mail follow it. A language chosen on this
 * phone is sent to the account whenever it changes while signed in, and at sign-in (the person just chose it, on the
 * screen in front of them); a phone where nobody chose takes the account's at sign-in.
 */
export function startAccountLanguage(): void {
  // Loaded once someone is signed in (main.tsx): the person signed in now counts as just signed in.
  let lastUserId = useSessionStore.getState().user?.id ?? null;
  const current = useSessionStore.getState().user;
  if (current) void onSignedIn(current);
  useSessionStore.subscribe((state) => {
    const id = state.user?.id ?? null;
    if (id === lastUserId) return;
    lastUserId = id;
    if (state.user) void onSignedIn(state.user);
  });
  let lastLocale = useLocaleStore.getState().locale;
  useLocaleStore.subscribe(({ locale }) => {
    if (locale === lastLocale) return;
    lastLocale = locale;
    const user = useSessionStore.getState().user;
    if (user && localeChosenHere() && user.language !== locale) void saveOnAccount(locale);
  });
}

async function onSignedIn(user: UserProfile): Promise<void> {
  const here = useLocaleStore.getState().locale;
  if (localeChosenHere()) {
    if (user.language !== undefined && user.language !== here) await saveOnAccount(here);
  } else if (user.language && user.language !== here) {
    await activateLocale(user.language);
  }
}

async function saveOnAccount(language: 'en' | 'lg'): Promise<void> {
  try {
    const user = await api(contracts.auth.updateProfile, { body: { language } });
    useSessionStore.getState().setUser(user);
  } catch {
    // Offline or refused: the phone keeps its choice and sends it again with the next change or sign-in.
  }
}
