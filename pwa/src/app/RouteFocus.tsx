import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { documentTitle, focusHeading } from '../lib/page.ts';

/** How long to wait for a lazily loaded screen to show its heading. */
const WAIT_MS = 10_000;
const POLL_MS = 50;

/**
 * Tells screen readers the page changed: on every route change the title falls back to the app's name
 * until the screen sets its own (useDocumentTitle), and focus moves to the new screen's `<h1>` as soon as
 * it renders — unless the person has meanwhile put focus somewhere themselves. Not on the first load,
 * where the browser's own announcement of the document is right.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);

  // Before any screen's own (passive) effect sets the new title.
  useLayoutEffect(() => {
    if (!first.current) document.title = documentTitle(null);
  }, [pathname]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const from = document.activeElement;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const active = document.activeElement;
      const untouched = !active || active === document.body || active === from || !active.isConnected;
      const heading = document.querySelector<HTMLElement>('#main h1, h1');
      if (!untouched || Date.now() - started > WAIT_MS) window.clearInterval(timer);
      else if (heading) {
        window.clearInterval(timer);
        focusHeading(heading, { preventScroll: true });
      }
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [pathname]);

  return null;
}
