import type { AdminPlan } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { EMPTY_PLAN_FORM, parseFeatures, planChanges, validatePlanForm, valuesFromPlan } from './plan-form.ts';

const filled = {
  ...EMPTY_PLAN_FORM,
  planName: '  Monthly ',
  price: '15000',
  displayOrder: '2',
  expiryDate: '2027-12-31',
  hour: '11',
  minute: '59',
  period: 'PM' as const,
  features: '  HD downloads \n\n\n One device  \n',
  description: ' All month ',
};

const plan: AdminPlan = {
  id: 'p1',
  plan_name: 'Monthly',
  price_ugx: 15000,
  description: 'All month',
  features: ['HD downloads', 'One device'],
  is_active: true,
  is_visible: false,
  display_order: 2,
  global_expiry_date: '2027-12-31T12:30',
  expires_at: '2027-12-31T09:30:00.000Z',
  sale_ends_at: '2027-12-31T03:30:00.000Z',
  subscriber_count: 0,
  movie_count: 1,
  active_movie_count: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('plan form', () => {
  it('builds the request body: trimmed name, whole numbers, features one per line, Kampala 24-hour expiry', () => {
    expect(validatePlanForm(filled)).toEqual({
      errors: {},
      input: {
        plan_name: 'Monthly',
        price_ugx: 15000,
        display_order: 2,
        global_expiry_date: '2027-12-31T23:59',
        features: ['HD downloads', 'One device'],
        description: 'All month',
        is_active: true,
        is_visible: true,
      },
    });
  });

  it('defaults the time to 12:00 AM, which is midnight', () => {
    const { input } = validatePlanForm({ ...filled, hour: EMPTY_PLAN_FORM.hour, minute: '00', period: 'AM' });
    expect(EMPTY_PLAN_FORM).toMatchObject({ hour: '12', minute: '00', period: 'AM' });
    expect(input?.global_expiry_date).toBe('2027-12-31T00:00');
  });

  it('says what each empty required field needs', () => {
    const { errors, input } = validatePlanForm({ ...EMPTY_PLAN_FORM, displayOrder: '' });
    expect(input).toBeNull();
    expect(errors).toEqual({
      planName: 'Plan name is required.',
      price: 'Price is required.',
      displayOrder: 'Display order is required.',
      expiryDate: 'Expiry date is required.',
      features: 'Add at least one feature, one per line.',
    });
  });

  it('refuses fractional or negative prices, fractional orders, impossible times and dates', () => {
    const { errors } = validatePlanForm({ ...filled, price: '10.5', displayOrder: '1.5', hour: '13', minute: '60' });
    expect(errors).toEqual({
      price: 'Price must be a whole number of UGX, 0 or more.',
      displayOrder: 'Display order must be a whole number.',
      hour: 'Enter the hour as a number from 1 to 12.',
      minute: 'Enter the minutes as a number from 00 to 59.',
    });
    expect(validatePlanForm({ ...filled, price: '-1' }).errors.price).toMatch(/whole number/);
    expect(validatePlanForm({ ...filled, displayOrder: '-3' }).input?.display_order).toBe(-3);
    expect(validatePlanForm({ ...filled, price: '0' }).input?.price_ugx).toBe(0);
    expect(validatePlanForm({ ...filled, expiryDate: '2027-02-30' }).errors.expiryDate).toBe(
      'Enter a real calendar date.',
    );
  });

  it('drops blank feature lines and trims the rest', () => {
    expect(parseFeatures('a\r\n  \n b \n')).toEqual(['a', 'b']);
  });

  it('fills edit mode from a plan, 12:30 on the 24-hour clock being 12:30 PM', () => {
    expect(valuesFromPlan(plan)).toEqual({
      planName: 'Monthly',
      price: '15000',
      displayOrder: '2',
      expiryDate: '2027-12-31',
      hour: '12',
      minute: '30',
      period: 'PM',
      features: 'HD downloads\nOne device',
      description: 'All month',
      isActive: true,
      isVisible: false,
    });
    expect(valuesFromPlan({ ...plan, global_expiry_date: '2027-12-31T00:05' })).toMatchObject({
      hour: '12',
      minute: '05',
      period: 'AM',
    });
  });

  it('edit mode sends only the fields that changed', () => {
    const { input } = validatePlanForm({ ...valuesFromPlan(plan), price: '20000' });
    expect(planChanges(plan, input!)).toEqual({ price_ugx: 20000 });
    const unchanged = validatePlanForm(valuesFromPlan(plan)).input!;
    expect(planChanges(plan, unchanged)).toEqual({});
    const moved = validatePlanForm({ ...valuesFromPlan(plan), period: 'AM', features: 'One device' }).input!;
    expect(planChanges(plan, moved)).toEqual({ global_expiry_date: '2027-12-31T00:30', features: ['One device'] });
  });
});
