// What the server refused, in the reader's language. The server answers a refusal with a `code` (the stable
// part, docs/protocol.md) and an English `message` (for tools and logs); a person reads the code's text from
// the catalog. A code the catalog does not know (a newer server) shows its message rather than nothing.

//
// A refusal of the rules (an illegal action, a bad record) also carries their reason as a code and its
// parameters (`reason_code`, `params`: rules/errors.inc), said from the catalog's `rules.CODE` texts; the
// English `message` stands in only for a code the catalog does not know.

import {has_text, t} from './i18n.js';
import {side_name} from './words.js';

// The rules' reason of a refusal ({reason_code, params}) in the reader's language, or null when the refusal
// has none the catalog knows. A side letter (a parameter named `side` or ending in `_side`) is said as the
// game (`game`, when known) names it; squares, items and results stay as the notation writes them.
export function rules_reason_text(refusal, game = null) {
  const code = refusal && refusal.reason_code;
  if (!code || !has_text(`rules.${code}`)) return null;
  const params = {};
  for (const [key, value] of Object.entries(refusal.params || {})) {
    const is_side = key === 'side' || key.endsWith('_side');
    params[key] = is_side && game ? side_name(game, String(value)) || String(value) : String(value);
  }
  return t(`rules.${code}`, params);
}

// A refusal in words: the code's text, or for an illegal action with the rules' reason (`refusal`, the
// server's error message) that reason.
export function error_text(code, message, refusal = null, game = null) {
  const reason = rules_reason_text(refusal, game);
  if (reason)
    return code === 'illegal' ? t('error.illegal_reason', {reason}) : t('error.other', {message: reason});
  if (code && has_text(`error.${code}`)) return t(`error.${code}`);
  return message ? t('error.other', {message}) : t('error.unknown');
}

// The text of an Error made from a server's refusal ({code, message}, with the rules' reason_code and params
// when given), or of any other failure.
export function failure_text(error, game = null) {
  if (error && error.code) return error_text(error.code, error.message, error, game);
  return error && error.message ? t('error.other', {message: error.message}) : t('error.unknown');
}
