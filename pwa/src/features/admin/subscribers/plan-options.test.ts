import type { AdminPlan } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { choosablePlans, planOptionLabel } from './plan-options.ts';

const plan = (over: Partial<AdminPlan>): AdminPlan => ({
  id: 'p',
  plan_name: 'Monthly',
  price_ugx: 1_500_000,
  description: '',
  features: ['Downloads'],
  is_active: true,
  is_visible: true,
  display_order: 0,
  global_expiry_date: '2026-12-31T23:59',
  expires_at: '2026-12-31T20:59:00.000Z',
  sale_ends_at: '2026-12-31T14:59:00.000Z',
  subscriber_count: 0,
  movie_count: 1,
  active_movie_count: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('Manage Subscription plan options', () => {
  it('name the plan, its UGX price with en-UG separators and its Kampala expiry date', () => {
    expect(planOptionLabel(plan({}))).toBe('Monthly — UGX 1,500,000 — expires 31 Dec 2026');
  });

  it('leave out plans that have already expired, keep inactive and hidden ones', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const plans = [
      plan({ id: 'live' }),
      plan({ id: 'gone', expires_at: '2026-05-31T23:59:00.000Z' }),
      plan({ id: 'hidden', is_visible: false, is_active: false }),
    ];
    expect(choosablePlans(plans, now).map((p) => p.id)).toEqual(['live', 'hidden']);
  });
});
