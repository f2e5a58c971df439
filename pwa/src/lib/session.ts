import type { AgentProfile, UserProfile } from '@filamu/shared';
import { create } from 'zustand';

/**
 * The signed-in session. Kept free of zod and the API client so it can live in the entry chunk;
 * loading the profile happens in `session-bootstrap.ts`, imported on demand.
 */
export type SessionKind = 'user' | 'agent';
export type SessionStatus = 'loading' | 'guest' | 'user' | 'agent';

interface Persisted {
  token: string;
  kind: SessionKind;
}

export interface SessionState {
  token: string | null;
  kind: SessionKind | null;
  status: SessionStatus;
  user: UserProfile | null;
  /** When `user` was last loaded from the server (ms), for the query cache. */
  userLoadedAt: number;
  agent: AgentProfile | null;
  signInUser: (token: string, user: UserProfile) => void;
  signInAgent: (token: string, agent: AgentProfile) => void;
  setUser: (user: UserProfile) => void;
  setAgent: (agent: AgentProfile) => void;
  clear: () => void;
}

const KEY = 'filamu.session';

function readPersisted(): Persisted | null {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Persisted>;
    if (typeof value.token === 'string' && value.token && (value.kind === 'user' || value.kind === 'agent')) {
      return { token: value.token, kind: value.kind };
    }
  } catch {
    /* corrupt or unavailable storage: treat as signed out */
  }
  return null;
}

function writePersisted(value: Persisted | null): void {
  try {
    if (value) localStorage.setItem(KEY, JSON.stringify(value));
    else localStorage.removeItem(KEY);
  } catch {
    /* storage unavailable */
  }
}

const initial = readPersisted();

export const useSessionStore = create<SessionState>()((set) => ({
  token: initial?.token ?? null,
  kind: initial?.kind ?? null,
  status: initial ? 'loading' : 'guest',
  user: null,
  userLoadedAt: 0,
  agent: null,
  signInUser: (token, user) => {
    writePersisted({ token, kind: 'user' });
    set({ token, kind: 'user', status: 'user', user, userLoadedAt: Date.now(), agent: null });
  },
  signInAgent: (token, agent) => {
    writePersisted({ token, kind: 'agent' });
    set({ token, kind: 'agent', status: 'agent', agent, user: null });
  },
  setUser: (user) => set({ user, userLoadedAt: Date.now(), status: 'user' }),
  setAgent: (agent) => set({ agent, status: 'agent' }),
  clear: () => {
    writePersisted(null);
    set({ token: null, kind: null, status: 'guest', user: null, agent: null });
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
  /** Subscribers and agents can browse and download. */
  hasAccess: boolean;
}

/** Session status and profile for components. */
export function useSession(): SessionView {
  const status = useSessionStore((s) => s.status);
  const user = useSessionStore((s) => s.user);
  const agent = useSessionStore((s) => s.agent);
  return {
    status,
    user,
    agent,
    profile: user ?? agent,
    name: user?.fullName ?? agent?.full_name ?? null,
    isAdmin: status === 'user' && !!user?.isAdmin,
    hasAccess: status === 'agent' || (status === 'user' && !!user?.isSubscribed),
  };
}

/** Loads the profile for a saved token; called once at start (the module is fetched only when needed). */
export function startSessionBootstrap(): void {
  if (!useSessionStore.getState().token) return;
  void import('./session-bootstrap.ts').then((m) => m.bootstrapSession());
}
