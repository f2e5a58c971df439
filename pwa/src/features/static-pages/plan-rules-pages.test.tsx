import { ENGLISH_KEPT_RULE, ENGLISH_UNLOCK_RULE, PLAN_END_RULE, PLAN_NEAR_END_RULE } from '@filamu/shared';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../prerender.tsx';

/** What the pages said before plans ended at one moment: a length per plan, counted from the day of payment. */
const LENGTH_PER_PLAN = /stated length|billing cycle|weekly \(?7 days|monthly \(?30 days|annual(ly)? \(?365 days/i;

/** The page's words, tags and entities undone, so a sentence reads as the shared rule wrote it. */
async function pageText(path: string): Promise<string> {
  const { html } = await renderPage(path);
  return html
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * The terms and refund pages say how plans really work: in the sentences the plan cards and checkout use, and
 * nothing the server does not do (the server's side of each sentence is tested in the API: plan-sale.test.ts,
 * english-kept.test.ts).
 */
describe('the terms and refund pages against how plans work', () => {
  it('the refund policy states the one end for everyone and the sale near the end, not a length per plan', async () => {
    const text = await pageText('/refund-cancellation');
    expect(text).toContain(PLAN_END_RULE);
    expect(text).toContain(PLAN_NEAR_END_RULE);
    expect(text).not.toMatch(LENGTH_PER_PLAN);
  });

  it('the terms state the same, and the English rule with what happens after an upload', async () => {
    const text = await pageText('/terms');
    expect(text).toContain(PLAN_END_RULE);
    expect(text).toContain(PLAN_NEAR_END_RULE);
    expect(text).toContain(ENGLISH_UNLOCK_RULE);
    expect(ENGLISH_UNLOCK_RULE).toContain(ENGLISH_KEPT_RULE);
    expect(text).not.toMatch(LENGTH_PER_PLAN);
  });
});
