import { DOWNLOAD_SIZES, type DownloadSize, groupDigits } from '@filamu/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { fieldClasses, Input } from '../../../components/ui/Input.tsx';
import { readDataPrice } from '../../../lib/data-price.ts';
import { typedNumber } from '../../../lib/form.ts';
import { useOperatorDataPrice } from '../data-price.ts';
import { setBundlePrice, setDefaultSize, useDownloadSettings } from '../settings.ts';
import { asRemembered, type SizePreference } from '../sizes.ts';
import { sizeName } from '../describe.ts';
import { useDownloadsT } from '../messages.ts';
import { SmallFilesSetting } from './SmallFilesSetting.tsx';

/** One "Small" in the list: the phone takes its own Small, HEVC or H.264 (decision 0252). */
const SIZES_TO_PICK = DOWNLOAD_SIZES.filter((size) => size !== 'small-hevc');

/** Download settings for data: the size downloads take (or "Always ask") and the price of the person's bundle. */
export function DataSettings() {
  const t = useDownloadsT();
  const settings = useDownloadSettings();
  const operatorPrice = useOperatorDataPrice();
  const sizeId = useId();
  const [price, setPrice] = useState(settings.bundlePricePerGbUgx?.toString() ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const savePrice = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    if (typedNumber(price) === undefined) {
      setBundlePrice(null);
      setError(null);
      setSaved(t('downloads.settings.price.reset', { price: groupDigits(operatorPrice) }));
      return;
    }
    const typed = readDataPrice(price);
    if (typed.error !== undefined) {
      setError(typed.error);
      return;
    }
    setError(null);
    setBundlePrice(typed.price);
    setSaved(t('downloads.settings.price.saved', { price: groupDigits(typed.price) }));
  };

  return (
    <>
      <div className="py-3">
        <label htmlFor={sizeId} className="font-semibold">
          {t('downloads.settings.size')}
        </label>
        <p id={`${sizeId}-hint`} className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
          {t('downloads.settings.size.hint')}
        </p>
        <select
          id={sizeId}
          aria-describedby={`${sizeId}-hint`}
          value={settings.defaultSize === 'ask' ? 'ask' : asRemembered(settings.defaultSize)}
          onChange={(e) => setDefaultSize(e.target.value as SizePreference)}
          className={`${fieldClasses} mt-2 border-stone-300 dark:border-stone-700`}
        >
          <option value="ask">{t('downloads.settings.size.ask')}</option>
          {SIZES_TO_PICK.map((size: DownloadSize) => (
            <option key={size} value={size}>
              {sizeName(size)}
            </option>
          ))}
        </select>
      </div>
      <SmallFilesSetting />
      <form className="py-3" onSubmit={savePrice} noValidate>
        <Input
          label={t('downloads.settings.price')}
          inputMode="numeric"
          autoComplete="off"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          placeholder={operatorPrice.toString()}
          hint={t('downloads.settings.price.hint', { price: groupDigits(operatorPrice) })}
          error={error}
        />
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button type="submit" size="sm" variant="outline">
            {t('downloads.settings.price.save')}
          </Button>
          <p role="status" className="text-sm text-stone-600 dark:text-stone-400">
            {saved}
          </p>
        </div>
      </form>
    </>
  );
}
