// What the server refused, in the reader's language. The server answers a refusal with a `code` (the stable
// part, docs/protocol.md) and an English `message` (for tools and logs); a person reads the code's text from
// the catalog. A code the catalog does not know (a newer server) shows its message rather than nothing.

import {has_text, t} from './i18n.js';

export function error_text(code, message) {
  if (code && has_text(`error.${code}`)) return t(`error.${code}`);
  return message ? t('error.other', {message}) : t('error.unknown');
}

// The text of an Error made from a server's refusal ({code, message}), or of any other failure.
export function failure_text(error) {
  if (error && error.code) return error_text(error.code, error.message);
  return error && error.message ? t('error.other', {message: error.message}) : t('error.unknown');
}
