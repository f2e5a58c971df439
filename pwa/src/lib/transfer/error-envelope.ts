/** What the API's `{ "error": { code, message, requestId } }` envelope says, read without trusting its shape. */
export interface EnvelopeError {
  code: string;
  message: string | null;
  requestId: string | null;
}

/**
 * Reads an error body leniently: a code this client does not know yet, or a body that is not the envelope at all
 * (a proxy's HTML page, an empty 502), still gives a usable code (`unknown`) and no invented message.
 */
export function readErrorEnvelope(body: unknown): EnvelopeError {
  const error = (body as { error?: { code?: unknown; message?: unknown; requestId?: unknown } } | null)?.error;
  return {
    code: typeof error?.code === 'string' ? error.code : 'unknown',
    message: typeof error?.message === 'string' ? error.message : null,
    requestId: typeof error?.requestId === 'string' ? error.requestId : null,
  };
}

/** The same from the raw text of a response (an XHR's `responseText`). */
export function readErrorEnvelopeText(text: string): EnvelopeError {
  try {
    return readErrorEnvelope(JSON.parse(text));
  } catch {
    return readErrorEnvelope(null);
  }
}
