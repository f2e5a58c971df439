import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LandingPage } from '../features/landing/LandingPage.tsx';
import { RequireAdmin, RequireAuth, RequireAuthOrKeptFilms } from './guards.tsx';
import { RootError } from './RootError.tsx';
import { RootLayout } from './RootLayout.tsx';
import { ErrorPanel } from '../components/ui/ErrorPanel.tsx';
import { PageSpinner } from '../components/ui/Spinner.tsx';
import { useT } from '../lib/i18n.ts';

/** A lazily loaded route module whose default export is the screen. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({ Component: (await load()).default });

/** Short addresses for the policy and contact pages, redirected to the product's real routes. */
const SHORT_URLS: Record<string, string> = {
  privacy: '/privacy-policy',
  refund: '/refund-cancellation',
  refunds: '/refund-cancellation',
  cancellation: '/refund-cancellation',
  dmca: '/dmca-policy',
  contact: '/contact-us',
  support: '/contact-us',
  'terms-of-service': '/terms',
  'terms-of-use': '/terms',
};

/** Product §2 route table. Only the landing page is in the entry chunk; everything else loads on demand. */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: RootError,
    // Shown while the first screen's lazy chunk loads.
    HydrateFallback: PageSpinner,
    children: [
      { index: true, Component: LandingPage },
      // The landing in Luganda (decision 0258), prerendered as its own page for search engines and first paint.
      { path: 'lg', Component: LandingPage },
      {
        // Everything below shares the query client (TanStack Query stays out of the landing chunk).
        lazy: page(() => import('./AppShell.tsx')),
        // A screen that throws (or whose chunk fails to load) is replaced by this; the toasts and banners stay.
        ErrorBoundary: ScreenError,
        children: [
          { path: 'login', lazy: page(() => import('../features/auth/LoginPage.tsx')) },
          { path: 'forgot-password', lazy: page(() => import('../features/auth/ForgotPasswordPage.tsx')) },
          { path: 'register', lazy: page(() => import('../features/auth/RegisterPage.tsx')) },
          { path: 'terms', lazy: page(() => import('../features/static-pages/TermsPage.tsx')) },
          { path: 'refund-cancellation', lazy: page(() => import('../features/static-pages/RefundPage.tsx')) },
          { path: 'privacy-policy', lazy: page(() => import('../features/static-pages/PrivacyPage.tsx')) },
          { path: 'dmca-policy', lazy: page(() => import('../features/static-pages/DmcaPage.tsx')) },
          { path: 'contact-us', lazy: page(() => import('../features/static-pages/ContactPage.tsx')) },
          { path: 'checkout/success', lazy: page(() => import('../features/payments/CheckoutSuccessPage.tsx')) },
          { path: 'checkout/failed', lazy: page(() => import('../features/payments/CheckoutFailedPage.tsx')) },
          { path: 'payment-flow', lazy: page(() => import('../features/payments/PaymentFlowPage.tsx')) },
          // Open to anyone, so an operator can check any phone in a shop (decision 0253).
          { path: 'device-check', lazy: page(() => import('../features/device-check/DeviceCheckPage.tsx')) },
          {
            Component: RequireAuth,
            children: [
              { path: 'dashboard', lazy: page(() => import('../features/dashboard/DashboardPage.tsx')) },
              { path: 'profile', lazy: page(() => import('../features/profile/ProfilePage.tsx')) },
              { path: 'movies', lazy: page(() => import('../features/catalog/MovieLibraryPage.tsx')) },
              { path: 'movies/:id', lazy: page(() => import('../features/catalog/MovieDetailPage.tsx')) },
              { path: 'subscription', lazy: page(() => import('../features/payments/SubscriptionPage.tsx')) },
              { path: 'checkout/:planId', lazy: page(() => import('../features/payments/CheckoutPage.tsx')) },
              // Films from phone to phone over a hotspot, with no data (issue 19/22).
              { path: 'downloads/send', lazy: page(() => import('../features/phone-to-phone/SendFilmsPage.tsx')) },
              // Night mode: tonight's films on the night bundle (issue 21/22); the window-start push opens it.
              {
                path: 'downloads/tonight',
                lazy: page(() => import('../features/downloads/tonight/NightModePage.tsx')),
              },
              {
                path: 'downloads/receive',
                lazy: page(() => import('../features/phone-to-phone/ReceiveFilmsPage.tsx')),
              },
            ],
          },
          {
            // The films on this phone play signed out too (decision 0233).
            Component: RequireAuthOrKeptFilms,
            children: [
              { path: 'downloads', lazy: page(() => import('../features/downloads/DownloadsPage.tsx')) },
              { path: 'downloads/:movieId/play', lazy: page(() => import('../features/downloads/PlayPage.tsx')) },
            ],
          },
          {
            path: 'admin',
            Component: RequireAdmin,
            children: [
              {
                // The console is its own lazy chunks: a subscriber never downloads any of it.
                lazy: page(() => import('../features/admin/AdminLayout.tsx')),
                children: [
                  {
                    // A tab that fails keeps the console's header and tab bar, so the admin can go on elsewhere.
                    ErrorBoundary: ConsoleTabError,
                    children: [
                      { index: true, lazy: page(() => import('../features/admin/overview/OverviewTab.tsx')) },
                      { path: 'movies', lazy: page(() => import('../features/admin/movies/MoviesTab.tsx')) },
                      {
                        path: 'subscribers',
                        lazy: page(() => import('../features/admin/subscribers/SubscribersTab.tsx')),
                      },
                      { path: 'payments', lazy: page(() => import('../features/admin/payments/PaymentsTab.tsx')) },
                      { path: 'messages', lazy: page(() => import('../features/admin/messages/MessagesTab.tsx')) },
                      { path: 'analytics', lazy: page(() => import('../features/admin/analytics/AnalyticsTab.tsx')) },
                      { path: 'plans', lazy: page(() => import('../features/admin/plans/PlansTab.tsx')) },
                      { path: 'agents', lazy: page(() => import('../features/admin/agents/AgentsTab.tsx')) },
                      {
                        path: 'phones',
                        lazy: page(() => import('../features/admin/device-checks/DeviceChecksTab.tsx')),
                      },
                    ],
                  },
                ],
              },
            ],
          },
          // The short addresses people type or say on the phone (docs/decisions/0042).
          ...Object.entries(SHORT_URLS).map(([path, to]) => ({ path, element: <Navigate to={to} replace /> })),
          { path: '*', lazy: page(() => import('../features/system/NotFoundPage.tsx')) },
        ],
      },
    ],
  },
];

function ScreenError() {
  const t = useT();
  return (
    <main id="main">
      <ErrorPanel title={t('ui.error.screen')} home={{ to: '/dashboard', label: t('ui.error.toDashboard') }} />
    </main>
  );
}

function ConsoleTabError() {
  return <ErrorPanel title="This part of the console failed" home={{ to: '/admin', label: 'Back to Overview' }} />;
}
