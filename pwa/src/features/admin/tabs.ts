/** The console's tabs in product §2 order, plus Payments (issue 10); each is a route under /admin. */
export const ADMIN_TABS = [
  { path: '/admin', label: 'Overview' },
  { path: '/admin/movies', label: 'Movies' },
  { path: '/admin/subscribers', label: 'Subscribers' },
  { path: '/admin/payments', label: 'Payments' },
  { path: '/admin/messages', label: 'Messages' },
  { path: '/admin/analytics', label: 'Analytics' },
  { path: '/admin/plans', label: 'Plans' },
  { path: '/admin/agents', label: 'Agents' },
] as const;
