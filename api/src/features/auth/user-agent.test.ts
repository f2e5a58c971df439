import { describe, expect, it } from 'vitest';
import { describeUserAgent, storedUserAgent, USER_AGENT_MAX } from './user-agent.ts';

const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  samsung:
    'Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
  operaAndroid:
    'Mozilla/5.0 (Linux; Android 10; TECNO KE5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 OPR/79.0.4195.76156',
  operaMini: 'Opera/9.80 (Android; Opera Mini/36.2.2254/119.132; U; id) Presto/2.12.423 Version/12.16',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/132.0 Mobile/15E148 Safari/605.1.15',
  edgeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/131.0 Mobile/15E148 Safari/605.1.15',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  headlessChromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36',
  chromebook:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  kaios:
    'Mozilla/5.0 (Mobile; LYF/F300B/LYF-F300B-001-01-15-130718-i; Android; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
};

describe('describeUserAgent', () => {
  it.each([
    ['chromeAndroid', 'Chrome', 'Android'],
    ['samsung', 'Samsung Internet', 'Android'],
    ['operaAndroid', 'Opera', 'Android'],
    ['operaMini', 'Opera', 'Android'],
    ['firefoxAndroid', 'Firefox', 'Android'],
    ['edgeWindows', 'Edge', 'Windows'],
    ['chromeWindows', 'Chrome', 'Windows'],
    ['safariIphone', 'Safari', 'iOS'],
    ['chromeIphone', 'Chrome', 'iOS'],
    ['firefoxIphone', 'Firefox', 'iOS'],
    ['edgeIphone', 'Edge', 'iOS'],
    ['safariMac', 'Safari', 'macOS'],
    ['firefoxLinux', 'Firefox', 'Linux'],
    ['headlessChromeLinux', 'Chrome', 'Linux'],
    ['chromebook', 'Chrome', 'ChromeOS'],
  ] as const)('%s → %s on %s', (name, browser, system) => {
    expect(describeUserAgent(UA[name])).toEqual({ browser, system });
  });

  it('names KaiOS feature phones KaiOS even when the header also says Android', () => {
    expect(describeUserAgent(UA.kaios)).toEqual({ browser: 'Firefox', system: 'KaiOS' });
  });

  it('says "Unknown browser" and no system for headers it does not recognise', () => {
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: 'Unknown browser', system: null });
    expect(describeUserAgent('node')).toEqual({ browser: 'Unknown browser', system: null });
    expect(describeUserAgent('')).toEqual({ browser: 'Unknown browser', system: null });
    expect(describeUserAgent(null)).toEqual({ browser: 'Unknown browser', system: null });
    expect(describeUserAgent(undefined)).toEqual({ browser: 'Unknown browser', system: null });
  });

  it('keeps a known system when only the browser is unknown', () => {
    expect(describeUserAgent('SomeApp/1.0 (Linux; Android 12)')).toEqual({
      browser: 'Unknown browser',
      system: 'Android',
    });
  });
});

describe('storedUserAgent', () => {
  it('trims, cuts long headers and stores nothing for a missing one', () => {
    expect(storedUserAgent('  Mozilla/5.0 x  ')).toBe('Mozilla/5.0 x');
    expect(storedUserAgent('a'.repeat(USER_AGENT_MAX + 100))).toHaveLength(USER_AGENT_MAX);
    expect(storedUserAgent('   ')).toBeNull();
    expect(storedUserAgent(undefined)).toBeNull();
  });
});
