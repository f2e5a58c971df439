import { describe, expect, it } from 'vitest';
import { describePhone } from './phone-of-user-agent.ts';

const REDUCED =
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('describePhone', () => {
  it('reads the model, Android and Chrome versions from a header that still names the phone', () => {
    const tecno =
      'Mozilla/5.0 (Linux; Android 9; TECNO KC8 Build/PPR1.180610.011) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/89.0.4389.105 Mobile Safari/537.36';
    expect(describePhone(tecno, null)).toEqual({ model: 'TECNO KC8', androidVersion: '9', chromeVersion: '89' });
    const webView =
      'Mozilla/5.0 (Linux; U; Android 8.1.0; en-us; itel W5504 Build/O11019; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/70.0.3538.110 Mobile Safari/537.36';
    expect(describePhone(webView, null)).toEqual({ model: 'itel W5504', androidVersion: '8.1.0', chromeVersion: '70' });
  });

  it('says no model for a reduced header, and takes the model and version from the hints of an Android phone', () => {
    expect(describePhone(REDUCED, null)).toEqual({ model: null, androidVersion: '10', chromeVersion: '131' });
    const hints = { platform: 'Android', model: 'TECNO BG6', platformVersion: '13.0.0' };
    expect(describePhone(REDUCED, hints)).toEqual({ model: 'TECNO BG6', androidVersion: '13', chromeVersion: '131' });
    expect(describePhone(REDUCED, { ...hints, model: '', platformVersion: '8.1.0' })).toMatchObject({
      model: null,
      androidVersion: '8.1',
    });
  });

  it('does not take a computer for a phone', () => {
    const linux =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36';
    const hints = { platform: 'Linux', model: '', platformVersion: '6.1.0' };
    expect(describePhone(linux, hints)).toEqual({ model: null, androidVersion: null, chromeVersion: '156' });
  });
});
