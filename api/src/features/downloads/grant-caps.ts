/**
 * How much one grant may hand out (decision 0191). A leaf of its own: the grant refuses links past it, the link check
 * refuses `/files` requests past it, and the delivery count decides when it is reached.
 */

/**
 * Copies of the file one grant (a download, or one re-download of it) may be sent. An honest download is sent about
 * one: it resumes from what it kept, so a drop costs the last unsaved megabyte or so. Three leave room for a change
 * of size half way and a phone that lost its partial file once; a client fetching the movie over and over to share
 * it gets at most three copies (and the response under way when it crosses) before its link stops.
 */
export const MAX_COPIES_PER_GRANT = 3;

export const TOO_MANY_COPIES =
  'This movie has already been sent to you three times over without finishing, so this download has stopped. Contact support if you still need it.';
