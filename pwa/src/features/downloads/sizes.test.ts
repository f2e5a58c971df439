import type { MovieSize } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import {
  asRemembered,
  costText,
  fromSizeText,
  preselectSize,
  receivedDataText,
  refetchShare,
  sizeDetail,
  sizesForThisPhone,
  smallToOffer,
  usedDataText,
} from './sizes.ts';

const MB = 1024 ** 2;
const smallHevc: MovieSize = { size: 'small-hevc', bytes: 190 * MB, height: 360 };
const small: MovieSize = { size: 'small', bytes: 290 * MB, height: 360 };
const standard: MovieSize = { size: 'standard', bytes: 700 * MB, height: 540 };
const original: MovieSize = { size: 'original', bytes: 1500 * MB, height: 1080 };

describe('costText', () => {
  it('prices the bytes at the price per GB, with the estimate sign', () => {
    const plain = (text: string) => text.replaceAll('\u00a0', ' ');
    expect(plain(costText(290e6, 6000))).toBe('≈ UGX 1,700 of data');
    expect(plain(costText(1.5e9, 6000))).toBe('≈ UGX 9,000 of data');
    expect(plain(costText(20e6, 6000))).toBe('≈ UGX 100 of data');
    // Below the floor the words say so, so 90 KB and 7 MB never read the same.
    expect(plain(costText(90_000, 6000))).toBe('under UGX 100 of data');
    expect(plain(costText(7.3e6, 6000))).toBe('under UGX 100 of data');
    expect(plain(costText(10e6, 6000))).toBe('under UGX 100 of data');
    // …and the estimate never wraps between the sign, the currency and the amount.
    expect(costText(290e6, 6000)).toBe('≈\u00a0UGX\u00a01,700 of data');
  });
});

describe('fromSizeText', () => {
  it('names the smallest size only when there is a choice', () => {
    expect(fromSizeText([small, standard, original])).toBe('from 290.0 MB');
    expect(fromSizeText([original])).toBeNull();
    expect(fromSizeText([])).toBeNull();
  });
});

describe('preselectSize', () => {
  const all = [small, standard, original];

  it('pre-selects the smallest size when the person has not picked one, whatever the connection', () => {
    expect(preselectSize(all, 'ask', null)).toBe('small');
    expect(preselectSize([standard, original], 'ask', null)).toBe('standard');
  });

  it('pre-selects the size the person picked last time, or the nearest smaller one the movie has', () => {
    expect(preselectSize(all, 'ask', 'original')).toBe('original');
    expect(preselectSize(all, 'ask', 'hd')).toBe('standard');
    expect(preselectSize([standard, original], 'ask', 'small')).toBe('standard');
  });

  it('uses the default size over the last pick, or the nearest smaller one the movie has', () => {
    expect(preselectSize(all, 'standard', 'original')).toBe('standard');
    expect(preselectSize(all, 'hd', null)).toBe('standard');
    expect(preselectSize([standard, original], 'small', null)).toBe('standard');
    expect(preselectSize([original], 'small', null)).toBe('original');
  });

  it('has nothing to pick from an empty list', () => {
    expect(preselectSize([], 'ask', null)).toBeNull();
  });
});

describe('sizesForThisPhone', () => {
  const both = [smallHevc, small, standard, original];

  it('offers a phone that plays HEVC its Small, and never the H.264 one beside it', () => {
    expect(sizesForThisPhone(both, 'small-hevc')).toEqual([smallHevc, standard, original]);
  });

  it('never offers the HEVC Small to a phone that cannot play it', () => {
    expect(sizesForThisPhone(both, 'small')).toEqual([small, standard, original]);
    expect(sizesForThisPhone([smallHevc, standard], 'small')).toEqual([standard]);
  });

  it('gives a phone that plays HEVC the H.264 Small while the movie has no HEVC one yet', () => {
    expect(sizesForThisPhone([small, standard, original], 'small-hevc')).toEqual([small, standard, original]);
  });

  it('keeps to the H.264 Small when the person chose files that work on every phone', () => {
    expect(smallToOffer('small-hevc', 'every-phone')).toBe('small');
    expect(smallToOffer('small-hevc', 'this-phone')).toBe('small-hevc');
    expect(smallToOffer('small', 'this-phone')).toBe('small');
    expect(smallToOffer('small', 'every-phone')).toBe('small');
  });
});

describe('preselectSize on the sizes this phone is offered', () => {
  const capable = sizesForThisPhone([smallHevc, small, standard, original], 'small-hevc');
  const incapable = sizesForThisPhone([smallHevc, small, standard, original], 'small');

  it('pre-selects the Small this phone is offered as the smallest', () => {
    expect(preselectSize(capable, 'ask', null)).toBe('small-hevc');
    expect(preselectSize(incapable, 'ask', null)).toBe('small');
  });

  it('reads a remembered Small, last picked or always, as this phone’s Small', () => {
    expect(preselectSize(capable, 'ask', 'small')).toBe('small-hevc');
    expect(preselectSize(capable, 'small', null)).toBe('small-hevc');
    expect(preselectSize(incapable, 'ask', 'small-hevc')).toBe('small');
    expect(preselectSize(incapable, 'small-hevc', null)).toBe('small');
    expect(preselectSize([standard, original], 'small-hevc', null)).toBe('standard');
  });

  it('keeps both Smalls as one "Small" in the settings', () => {
    expect(asRemembered('small-hevc')).toBe('small');
    expect(asRemembered('small')).toBe('small');
    expect(asRemembered('hd')).toBe('hd');
  });
});

describe('sizeDetail', () => {
  it('gives a rendition its height and says what the Original is', () => {
    expect(sizeDetail(small)).toBe('360p');
    expect(sizeDetail(original)).toBe('The uploaded file, largest');
  });
});

describe('receivedDataText', () => {
  it('says a film from another phone cost no data, or what was fetched of it before', () => {
    expect(receivedDataText(0)).toBe('Received from a phone · 0 MB of data');
    expect(receivedDataText(12 * MB)).toBe('Received from a phone · 12.0 MB of data');
  });
});

describe('refetchShare and usedDataText', () => {
  it('is the share fetched twice, never below 0', () => {
    expect(refetchShare(102, 100)).toBeCloseTo(0.02);
    expect(refetchShare(90, 100)).toBe(0);
    expect(refetchShare(100, 0)).toBe(0);
  });

  it('says what the download used, with the re-fetch only when there was one', () => {
    expect(usedDataText(296 * MB, 290 * MB)).toBe('Used 296.0 MB of data (2 % re-fetched)');
    expect(usedDataText(290 * MB, 290 * MB)).toBe('Used 290.0 MB of data');
    expect(usedDataText(290.5 * MB, 290 * MB)).toBe('Used 290.5 MB of data (<1 % re-fetched)');
    expect(usedDataText(0, 290 * MB)).toBe('Used 290.0 MB of data');
    expect(usedDataText(296 * MB, null)).toBe('Used 296.0 MB of data');
  });
});
