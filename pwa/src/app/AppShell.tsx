import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { ensureDownloadManager } from '../features/downloads/autostart.ts';
import { queryClient } from '../lib/query-client.ts';

// Not while prerendering pages at build time: there is nobody to download for.
if (!import.meta.env.SSR) ensureDownloadManager();

/** Layout for every route except the landing page: provides the server cache (and brings the download manager). */
export default function AppShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
