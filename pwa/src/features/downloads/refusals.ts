import { isApiError } from '../../lib/api.ts';
import { downloadsT as t } from './messages.ts';

/** Product §8: the toast for a refused or failed download grant. */
export function grantRefusal(error: unknown): { title: string; description: string } {
  if (isApiError(error)) {
    switch (error.code) {
      case 'subscription_required':
        return { title: t('downloads.refusal.subscription'), description: t('downloads.refusal.subscription.text') };
      case 'download_locked':
        return {
          title: t('downloads.refusal.locked'),
          description: t('downloads.refusal.locked.text'),
        };
      case 'already_downloaded':
        return { title: t('downloads.refusal.already'), description: t('downloads.refusal.already.text') };
      case 'redownload_limit':
        return { title: t('downloads.refusal.noRedownloads'), description: error.message };
    }
    if (error.status >= 500) {
      return {
        title: t('downloads.refusal.failed'),
        description: error.message || t('downloads.refusal.server'),
      };
    }
    if (error.status > 0 && error.message) return { title: t('downloads.refusal.failed'), description: error.message };
  }
  return { title: t('downloads.refusal.failed'), description: t('downloads.refusal.unknown') };
}
