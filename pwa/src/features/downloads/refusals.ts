import { isApiError } from '../../lib/api.ts';

/** Product §8: the toast for a refused or failed download grant. */
export function grantRefusal(error: unknown): { title: string; description: string } {
  if (isApiError(error)) {
    switch (error.code) {
      case 'subscription_required':
        return { title: 'Subscription Required', description: 'You need an active subscription to download movies.' };
      case 'download_locked':
        return {
          title: 'Download Requirement',
          description: 'You must download all Kinayuganda movies first to unlock English movie downloads.',
        };
      case 'already_downloaded':
        return { title: 'Download Not Allowed', description: 'You have already downloaded this movie.' };
      case 'redownload_limit':
        return { title: 'No re-downloads left', description: error.message };
    }
    if (error.status >= 500) {
      return {
        title: 'Download Failed',
        description: error.message || 'Server Error: Could not generate download URL.',
      };
    }
    if (error.status > 0 && error.message) return { title: 'Download Failed', description: error.message };
  }
  return { title: 'Download Failed', description: 'Could not initiate movie download. Please try again.' };
}
