import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { ensureDownloadManager } from '../features/downloads/autostart.ts';
import { queryClient } from '../lib/query-client.ts';

ensureDownloadManager();

/** Layout for every route except the landing page: provides the server cache (and brings the download manager). */
export default function AppShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
