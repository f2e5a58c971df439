/** The console's tabs in product §2 order, plus Payments (issue 10); each is a route under /admin. */
export const ADMIN_TABS = [
  { path: '/admin', label: 'Overview' },
  { path: '/admin/movies', label: 'Movies' },
  { path: '/admin/subscribers', label: 'Subscribers' },
  { path: '/admin/payments', label: 'Payments' },
  { path: '/admin/messages', label: 'Messages' },
  { path: '/admin/analytics', label: 'Analytics' },
  // Beside the figures; Agents stays last (e2e/admin-phone.e2e.ts scrolls the bar to its end there).
  { path: '/admin/phones', label: 'Phones' },
  { path: '/admin/plans', label: 'Plans' },
  { path: '/admin/agents', label: 'Agents' },
] as const;
