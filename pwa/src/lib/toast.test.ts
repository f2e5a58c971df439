import { beforeEach, describe, expect, it } from 'vitest';
import { toast, useToastStore } from './toast.ts';

const shown = () => useToastStore.getState().toasts.map((t) => `${t.variant}: ${t.title}`);

describe('toasts', () => {
  beforeEach(() => useToastStore.setState({ toasts: [] }));

  it('shows one error at a time: a new error replaces the stale one', () => {
    toast.error('Phone Number Required');
    toast.success('Payment Methods Loaded');
    toast.error('Invalid Phone Number');
    expect(shown()).toEqual(['success: Payment Methods Loaded', 'error: Invalid Phone Number']);
  });

  it('does not stack the same message twice', () => {
    toast.info('Resuming Download', 'Film');
    toast.info('Resuming Download', 'Film');
    toast.info('Resuming Download', 'Another film');
    expect(useToastStore.getState().toasts.map((t) => t.description)).toEqual(['Film', 'Another film']);
  });

  it('keeps at most three, newest last', () => {
    for (const title of ['a', 'b', 'c', 'd']) toast.success(title);
    expect(shown()).toEqual(['success: b', 'success: c', 'success: d']);
  });
});
