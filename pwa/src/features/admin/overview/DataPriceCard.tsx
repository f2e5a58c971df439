import { contracts, DataPriceSetting, DEFAULT_DATA_PRICE_PER_GB_UGX } from '@filamu/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Card, CardTitle } from '../../../components/ui/Card.tsx';
import { Input } from '../../../components/ui/Input.tsx';
import { api, errorMessage } from '../../../lib/api.ts';
import { readDataPrice } from '../../../lib/data-price.ts';
import { queryClient, queryKeys } from '../../../lib/query-client.ts';
import { toast } from '../../../lib/toast.ts';

/**
 * The operator's price of 1 GB of mobile data: what the size choice before a download prices each size at (a
 * subscriber may set their own bundle's price on their phone instead).
 */
export function DataPriceCard() {
  const current = useQuery({
    queryKey: queryKeys.dataPrice,
    queryFn: () => api(contracts.settings.dataPrice),
  });
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: DataPriceSetting) => api(contracts.settings.adminSetDataPrice, { body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.dataPrice, saved);
      setDraft(null);
      toast.success(
        'Data price saved',
        `Sizes are priced at UGX ${saved.dataPricePerGbUgx.toLocaleString('en-US')} per GB.`,
      );
    },
    onError: (e) => setError(errorMessage(e, 'Could not save the price. Please try again.')),
  });

  const shown = current.data?.dataPricePerGbUgx ?? (current.isError ? DEFAULT_DATA_PRICE_PER_GB_UGX : null);
  const value = draft ?? (shown === null ? '' : String(shown));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = readDataPrice(value);
    if (typed.error !== undefined) {
      setError(typed.error);
      return;
    }
    setError(null);
    save.mutate({ dataPricePerGbUgx: typed.price });
  };

  return (
    <Card>
      <CardTitle>Data price</CardTitle>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Subscribers see what each download size costs in data at this price before they download.
        {current.isError && ' The saved price could not be loaded; the default is shown.'}
      </p>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <Input
          label="Price of 1 GB of data (UGX)"
          inputMode="numeric"
          autoComplete="off"
          value={value}
          disabled={current.isPending}
          onChange={(e) => setDraft(e.target.value)}
          error={error}
          className="w-full sm:w-64"
        />
        <Button type="submit" loading={save.isPending} disabled={current.isPending}>
          Save price
        </Button>
      </form>
    </Card>
  );
}
