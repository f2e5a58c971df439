import { describe, expect, it } from 'vitest';
import { gatewayMoney, partsAndCost, recipient } from './presentation.ts';

describe('gatewayMoney', () => {
  it('reads the gateway amounts as money people read', () => {
    expect(gatewayMoney('UGX 35.0000')).toBe('UGX 35');
    expect(gatewayMoney('UGX 49825.0000')).toBe('UGX 49,825');
    expect(gatewayMoney('KES 0.8000')).toBe('KES 0.8');
  });

  it('shows anything else as it came', () => {
    expect(gatewayMoney('unknown')).toBe('unknown');
    expect(gatewayMoney('UGX lots')).toBe('UGX lots');
  });
});

describe('partsAndCost and recipient', () => {
  it('joins parts and the cost, or says nothing was counted', () => {
    expect(partsAndCost(1, 'UGX 35.0000')).toBe('1 part · UGX 35');
    expect(partsAndCost(null, null)).toBe('—');
  });

  it('writes a phone as people do, and leaves an address as it is', () => {
    expect(recipient('sms', '256772123456')).toBe('0772 123 456');
    expect(recipient('email', 'grace@example.com')).toBe('grace@example.com');
  });
});
