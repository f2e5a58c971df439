import { type DeviceCheck, formatDateTime } from '@filamu/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/Badge.tsx';
import { Card } from '../../../components/ui/Card.tsx';
import { LoadFailure } from '../../../components/ui/LoadFailure.tsx';
import { type Column, DataTable } from '../components/DataTable.tsx';
import { TabHeading } from '../components/TabHeading.tsx';
import { Pager } from '../subscribers/Pager.tsx';
import { DEVICE_CHECKS_PAGE_SIZE, useDeviceChecks } from './queries.ts';

const yesNo = (yes: boolean) => <Badge tone={yes ? 'success' : 'neutral'}>{yes ? 'Yes' : 'No'}</Badge>;

const columns: Column<DeviceCheck>[] = [
  { id: 'model', header: 'Phone', cell: (c) => c.model ?? <span className="text-stone-500">Not said</span> },
  { id: 'android', header: 'Android', cell: (c) => c.androidVersion ?? '—' },
  { id: 'chrome', header: 'Chrome', cell: (c) => c.chromeVersion ?? '—' },
  { id: 'date', header: 'Checked', cell: (c) => formatDateTime(c.createdAt) },
  { id: 'hevc', header: 'HEVC Small', cell: (c) => yesNo(c.hevcSmall) },
  { id: 'h264', header: 'H.264', cell: (c) => yesNo(c.h264Small) },
];

/** "3 of 8 phones checked get HEVC Small (38 %)": the share of checked phones, not of all subscribers' phones. */
function hevcHeadline(hevcSmall: number, total: number): string {
  const percent = total === 0 ? 0 : Math.round((hevcSmall / total) * 100);
  return `${hevcSmall.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${total === 1 ? 'phone checked gets' : 'phones checked get'} HEVC Small (${percent} %)`;
}

/**
 * The phones checked on /device-check (decision 0253), newest first: which get the HEVC Small, and the share of all
 * checked phones that do, so Filamu sees over time how many of its subscribers' phones the smaller files reach.
 */
export default function DeviceChecksTab() {
  const [page, setPage] = useState(1);
  const checks = useDeviceChecks(page);
  const data = checks.data;
  return (
    <>
      <TabHeading
        title="Phones"
        description={
          <>
            Phones checked on{' '}
            <Link to="/device-check" className="font-medium text-brand-700 underline dark:text-brand-300">
              the device check page
            </Link>{' '}
            (open <code>/device-check</code> on any phone, no sign-in needed, and press Send).
          </>
        }
      />
      {checks.isError && !data ? (
        <LoadFailure
          what="phone checks"
          error={checks.error}
          onRetry={() => void checks.refetch()}
          retrying={checks.isFetching}
        />
      ) : (
        <div className="space-y-4">
          <Card role="region" aria-labelledby="hevc-share">
            <h2 id="hevc-share" className="text-lg font-bold" data-testid="hevc-headline">
              {data
                ? data.total === 0
                  ? 'No phone checked yet'
                  : hevcHeadline(data.hevcSmall, data.total)
                : 'Loading…'}
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              A phone gets HEVC Small when its decoder plays it in hardware and it plays Opus sound; every other phone
              gets H.264. Each Send is counted, so a phone checked twice counts twice.
            </p>
          </Card>
          <DataTable
            caption="Phones checked, newest first"
            columns={columns}
            rows={data?.checks ?? []}
            rowKey={(c) => c.id}
            loading={checks.isPending}
            empty="No phone has been checked yet. Open the device check page on a phone and press Send."
          />
          {data && data.total > 0 && (
            <Pager
              page={page}
              pageSize={DEVICE_CHECKS_PAGE_SIZE}
              total={data.total}
              busy={checks.isFetching}
              onPage={setPage}
            />
          )}
        </div>
      )}
    </>
  );
}
