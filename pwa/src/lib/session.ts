import type { AgentProfile, UserProfile } from '@filamu/shared';
import { create } from 'zustand';
import { useHydrated } from './hydration.ts';
import { readLocal, writeLocal } from './local-storage.ts';
import { STORAGE_KEYS } from './storage-names.ts';

/**
 * The signed-in session. Kept free of zod and the API client so it can live in the entry chunk;
 * refreshing the profile happens in `session-bootstrap.ts`, imported on demand.
 *
 * The token is saved with the last profile the server gave us, so the app opens signed in without the
 * network (docs/decisions/0040). Only a 401 from the server ends the session; see `api.ts`.
 */
type SessionKind = 'user' | 'agent';
type SessionStatus = 'loading' | 'guest' | 'user' | 'agent';

interface Persisted {
  token: string;
  kind: SessionKind;
  /** The last profile loaded for this token; null when it was never saved or did not look right. */
  profile: UserProfile | AgentProfile | null;
}

export interface SessionState {
  token: string | null;
  kind: SessionKind | null;
  status: SessionStatus;
  user: UserProfile | null;
  /** When `user` was last loaded from the server (ms), for the query cache. */
  userLoadedAt: number;
  agent: AgentProfile | null;
  /** The last attempt to load the profile could not reach the server (offline, timeout, 5xx). */
  unreachable: boolean;
  /**
   * The owner id (`user:<id>` or `agent:<id>`) of the last person signed in on this phone, kept after the server ends
   * the session (another phone, expired): their films stay on My Downloads and play (decision 0233). Forgotten when
   * they log out themselves; replaced when someone else signs in.
   */
  keptOwnerId: string | null;
  signInUser: (token: string, user: UserProfile) => void;
  signInAgent: (token: string, agent: AgentProfile) => void;
  setUser: (user: UserProfile) => void;
  setAgent: (agent: AgentProfile) => void;
  setUnreachable: (unreachable: boolean) => void;
  clear: () => void;
  /** Log out: the phone no longer shows this person's films until they sign in again. */
  forgetKeptOwner: () => void;
}

const KEY = STORAGE_KEYS.session;
const KEPT_KEY = STORAGE_KEYS.keptOwner;

/** Whose downloads and watch positions these are: user and agent ids live in different tables. */
export function ownerIdOf(kind: SessionKind, profile: { id: string }): string {
  return `${kind}:${profile.id}`;
}

/** The kept owner, remembered (when it changed) so a session the server ends later still finds it. */
function keepOwner(ownerId: string): string {
  if (readLocal(KEPT_KEY) !== ownerId) writeLocal(KEPT_KEY, ownerId);
  return ownerId;
}

function readKeptOwner(): string | null {
  const value = readLocal(KEPT_KEY);
  return value && /^(user|agent):[\w-]{1,64}$/.test(value) ? value : null;
}

type Check = (value: unknown) => boolean;
const text: Check = (v) => typeof v === 'string';
const textOrNull: Check = (v) => v === null || typeof v === 'string';
const flag: Check = (v) => typeof v === 'boolean';

/** The fields the screens read, checked by type only (no zod in the entry chunk). */
const PROFILE_SHAPE: Record<SessionKind, Record<string, Check>> = {
  user: {
    id: text,
    email: text,
    fullName: text,
    phone: textOrNull,
    isAdmin: flag,
    isSubscribed: flag,
    subscriptionPlan: textOrNull,
    subscription_start_date: textOrNull,
    subscription_end_date: textOrNull,
    daysRemaining: (v) => v === null || Number.isInteger(v),
    createdAt: text,
    updatedAt: text,
    deviceIDs: (v) => Array.isArray(v) && v.every(text),
  },
  agent: {
    id: text,
    email: text,
    full_name: text,
    phone: textOrNull,
    isAdmin: (v) => v === false,
    isSubscribed: (v) => v === true,
    subscriptionPlan: text,
    createdAt: text,
    updatedAt: text,
  },
};

function looksLikeProfile(value: unknown, kind: SessionKind): boolean {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return record.kind === kind && Object.entries(PROFILE_SHAPE[kind]).every(([field, ok]) => ok(record[field]));
}

/** The saved session; a missing or odd-looking profile is dropped but the token kept (it is fetched again). */
function readPersisted(): Persisted | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Persisted> | null;
    if (!value || typeof value.token !== 'string' || !value.token) return null;
    if (value.kind !== 'user' && value.kind !== 'agent') return null;
    const profile = looksLikeProfile(value.profile, value.kind) ? (value.profile as UserProfile | AgentProfile) : null;
    return { token: value.token, kind: value.kind, profile };
  } catch {
    /* corrupt or unavailable storage: treat as signed out */
  }
  return null;
}

function writePersisted(value: Persisted | null): void {
  // Refused by the phone: the session lasts as long as the page.
  writeLocal(KEY, value ? JSON.stringify(value) : null);
}

const initial = readPersisted();
const initialUser = initial?.kind === 'user' ? (initial.profile as UserProfile | null) : null;
const initialAgent = initial?.kind === 'agent' ? (initial.profile as AgentProfile | null) : null;
// A phone signed in before the kept owner existed learns it now, while the profile is still saved.
const initialKept = initial?.profile ? keepOwner(ownerIdOf(initial.kind, initial.profile)) : readKeptOwner();

export const useSessionStore = create<SessionState>()((set, get) => ({
  token: initial?.token ?? null,
  kind: initial?.kind ?? null,
  // A saved profile opens the app signed in at once; it is refreshed in the background.
  status: !initial ? 'guest' : initial.profile ? initial.kind : 'loading',
  user: initialUser,
  // Never "fresh" for the query cache: screens that show the profile load it again (the saved one may be old).
  userLoadedAt: 0,
  agent: initialAgent,
  unreachable: false,
  keptOwnerId: initialKept,
  signInUser: (token, user) => {
    writePersisted({ token, kind: 'user', profile: user });
    const keptOwnerId = keepOwner(ownerIdOf('user', user));
    set({
      token,
      kind: 'user',
      status: 'user',
      user,
      userLoadedAt: Date.now(),
      agent: null,
      unreachable: false,
      keptOwnerId,
    });
  },
  signInAgent: (token, agent) => {
    writePersisted({ token, kind: 'agent', profile: agent });
    const keptOwnerId = keepOwner(ownerIdOf('agent', agent));
    set({ token, kind: 'agent', status: 'agent', agent, user: null, unreachable: false, keptOwnerId });
  },
  setUser: (user) => {
    const { token, kind } = get();
    // A late answer after sign-out (or for another kind of account) must not sign anyone in.
    if (!token || kind !== 'user') return;
    // The profile refreshed at every start is most often the one saved: keeping the same object spares every
    // screen that reads it a re-render while the page is still opening.
    const current = get().user;
    if (current && get().status === 'user' && JSON.stringify(current) === JSON.stringify(user)) {
      set({ userLoadedAt: Date.now(), unreachable: false });
      return;
    }
    writePersisted({ token, kind, profile: user });
    set({
      user,
      userLoadedAt: Date.now(),
      status: 'user',
      unreachable: false,
      keptOwnerId: keepOwner(ownerIdOf('user', user)),
    });
  },
  setAgent: (agent) => {
    const { token, kind } = get();
    if (!token || kind !== 'agent') return;
    writePersisted({ token, kind, profile: agent });
    set({ agent, status: 'agent', unreachable: false, keptOwnerId: keepOwner(ownerIdOf('agent', agent)) });
  },
  setUnreachable: (unreachable) => set({ unreachable }),
  clear: () => {
    writePersisted(null);
    set({ token: null, kind: null, status: 'guest', user: null, userLoadedAt: 0, agent: null, unreachable: false });
  },
  forgetKeptOwner: () => {
    writeLocal(KEPT_KEY, null);
    set({ keptOwnerId: null });
  },
}));

export interface SessionView {
  status: SessionStatus;
  user: UserProfile | null;
  agent: AgentProfile | null;
  /** Whichever profile is signed in. */
  profile: UserProfile | AgentProfile | null;
  /** The signed-in account's name, whichever kind. */
  name: string | null;
  isAdmin: boolean;
  /** Subscribers and staff (agents, admins) can browse and download; staff are never offered a plan. */
  hasAccess: boolean;
}

/** What a prerendered page shows, and what its first client render must match: nobody known yet. */
const PRERENDERED: SessionView = {
  status: 'loading',
  user: null,
  agent: null,
  profile: null,
  name: null,
  isAdmin: false,
  hasAccess: false,
};

/** Session status and profile for components. */
export function useSession(): SessionView {
  const hydrated = useHydrated();
  const status = useSessionStore((s) => s.status);
  const user = useSessionStore((s) => s.user);
  const agent = useSessionStore((s) => s.agent);
  if (!hydrated) return PRERENDERED;
  return {
    status,
    user,
    agent,
    profile: user ?? agent,
    name: user?.fullName ?? agent?.full_name ?? null,
    isAdmin: status === 'user' && !!user?.isAdmin,
    hasAccess: status === 'agent' || (status === 'user' && !!(user?.isSubscribed || user?.isAdmin)),
  };
}
