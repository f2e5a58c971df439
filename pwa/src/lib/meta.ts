import { create } from 'zustand';

/** App flags from GET /api/meta (maintenance mode). Plain fetch: no zod in the entry chunk. */
interface MetaState {
  loaded: boolean;
  maintenance: boolean;
}

export const useMetaStore = create<MetaState>()(() => ({ loaded: false, maintenance: false }));

export async function loadMeta(): Promise<void> {
  try {
    const response = await fetch('/api/meta', { headers: { Accept: 'application/json' } });
    const json = (await response.json()) as { maintenance?: unknown };
    useMetaStore.setState({ loaded: true, maintenance: response.ok && json.maintenance === true });
  } catch {
    useMetaStore.setState({ loaded: true, maintenance: false });
  }
}
