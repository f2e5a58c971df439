/**
 * Ids of error messages (namespace `server`) start with this. They are not looked up by id: the server finds them by
 * their English text when it writes an error envelope, so such a message is in use while its English text is still
 * written, word for word, somewhere in the code (scripts/i18n.ts checks it).
 */
export const ERROR_PREFIX = 'error.';
