/**
 * What the search box holds: the text typed, the URL's search last seen, the searches it sent itself that the URL
 * has not echoed yet (oldest first), and how many times a search from elsewhere replaced the text (the box writes the
 * input only then).
 */
export interface SearchText {
  text: string;
  seen: string;
  sent: string[];
  replaced: number;
}

/** A box sends one search per pause in typing; more than this many unanswered means the URL moved on without them. */
const PENDING_MAX = 8;

/** The box showing the URL's `search` as the page opens. */
export function searchText(search: string): SearchText {
  return { text: search, seen: search, sent: [], replaced: 0 };
}

/** The box once it has sent `search`. */
export function onSent(box: SearchText, search: string): SearchText {
  return { ...box, sent: [...box.sent, search].slice(-PENDING_MAX) };
}

/** Keys typed that the box has not sent: they win over the URL, and go out after the pause. */
function typing(box: SearchText): boolean {
  const text = box.text.trim();
  return text !== box.seen && !box.sent.includes(text);
}

/**
 * The box when the URL's search is `value`. The URL echoing a search the box sent leaves the text alone: keys typed
 * while that navigation was under way (a slow phone) are kept, not replaced by the shorter text sent before them —
 * even when a newer search was sent before the older one's echo arrived. A search from elsewhere (back, a link)
 * replaces the text, unless the person is typing: what they type is sent after the pause and the URL follows it.
 */
export function onUrlSearch(box: SearchText, value: string): SearchText {
  if (value === box.seen) return box;
  const echoed = box.sent.indexOf(value);
  if (echoed >= 0) return { ...box, seen: value, sent: box.sent.slice(echoed + 1) };
  if (typing(box)) return { ...box, seen: value, sent: [] };
  if (value === box.text.trim()) return { ...box, seen: value, sent: [] };
  return { text: value, seen: value, sent: [], replaced: box.replaced + 1 };
}
