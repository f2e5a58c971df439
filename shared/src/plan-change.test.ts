import { describe, expect, it } from 'vitest';
import { planChange, planChangeRefusal } from './plan-change.ts';

const now = new Date('2027-11-01T09:00:00Z');
const basic = { planName: 'Basic', endsAt: new Date('2027-12-15T20:59:00Z') };
const plan = (planName: string, iso: string) => ({ planName, expiresAt: new Date(iso) });

describe('what buying a plan does to the current one', () => {
  it('simply starts a plan for someone without a subscription in force', () => {
    expect(planChange(plan('Premium', '2027-12-31T20:59:00Z'), null, now)).toEqual({ kind: 'new' });
    const lapsed = { planName: 'Basic', endsAt: new Date('2027-10-01T00:00:00Z') };
    expect(planChange(plan('Basic', '2027-12-31T20:59:00Z'), lapsed, now)).toEqual({ kind: 'new' });
  });

  it('replaces the current plan with one that ends later', () => {
    expect(planChange(plan('Premium', '2027-12-31T20:59:00Z'), basic, now)).toEqual({
      kind: 'replaces',
      current: basic,
    });
  });

  it('marks the plan held as current, whatever its case or spaces', () => {
    const change = planChange(plan(' basic ', '2027-12-15T20:59:00Z'), basic, now);
    expect(change.kind).toBe('current');
    expect(planChangeRefusal(change, plan('Basic', '2027-12-15T20:59:00Z'))).toBe(
      'You already have the Basic plan until 15 Dec 2027.',
    );
  });

  it('refuses another plan ending on or before the current end date', () => {
    for (const iso of ['2027-12-01T20:59:00Z', '2027-12-15T20:59:00Z']) {
      const weekly = plan('Weekly', iso);
      const change = planChange(weekly, basic, now);
      expect(change.kind).toBe('ends-earlier');
      expect(planChangeRefusal(change, weekly)).toMatch(
        /^Weekly ends on \d{1,2} Dec 2027, on or before your Basic plan/,
      );
    }
  });

  it('gives no refusal for a plan that can be bought', () => {
    expect(planChangeRefusal({ kind: 'new' }, plan('Basic', '2027-12-31T20:59:00Z'))).toBeNull();
  });
});
