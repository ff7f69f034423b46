// The page's words in the reader's language (docs/languages.md). The server chose the
// language and put every message the scripts use, translated, in the page's
// <script type="application/json" id="messages">; nothing here is hard-coded in a language.
// A message is a call of t with the English text, or of tn with the English singular and
// plural and the count, each a double-quoted literal (the server and `make messages` find
// them that way; docs/languages.md); {name} in it is filled from the values given.

function readMessages() {
  const block = document.getElementById("messages");
  if (!block) return { lang: document.documentElement.lang || "en", dir: "ltr", messages: {}, plurals: {} };
  return JSON.parse(block.textContent);
}

const data = readMessages();

// The page's language (en, fr, he, bg) and writing direction (ltr, rtl).
export const lang = data.lang;
export const dir = data.dir;

// The index of the plural form `count` takes in the page's language, in the order of the
// forms the server sends (binscrabble.web.page_text.PLURAL_SAMPLES).
function pluralIndex(count) {
  if (lang === "fr") return count > 1 ? 1 : 0;
  if (lang === "he") return count === 1 ? 0 : count === 2 ? 1 : 2;
  return count === 1 ? 0 : 1;
}

// French elides "de", "que", "le" and "la" before a vowel: "score de {name}" with Élodie is
// "score d’Élodie" (with Hugo, "score de Hugo"), as binscrabble.i18n.fill does. A name is not
// known when the sentence is translated, so the elision is made here, where it is filled in.
// The word stands alone: no letter or digit before it ("modèle {name}" keeps its "le"); the
// character before it is matched and written back (no lookbehind: older Safari lacks it).
const ELIDED = /^[\u2066-\u2069]*[aeiouàâäéèêëîïôöùûü]/iu;
const PLACEHOLDER = /(?:(^|[^\p{L}\p{N}_])([Dd]e|[Qq]ue|[Ll][ea]) )?\{(\w+)\}/gu;

function fill(text, values) {
  if (!values) return text;
  return text.replace(PLACEHOLDER, (whole, before, word, name) => {
    if (!(name in values)) return whole;
    const value = String(values[name]);
    if (!word) return value;
    const elided = lang === "fr" && ELIDED.test(value);
    return elided ? `${before}${word.slice(0, -1)}’${value}` : `${before}${word} ${value}`;
  });
}

// The direction marks, embeddings, overrides and isolates (U+200E, U+200F, U+202A-U+202E,
// U+2066-U+2069) that the catalogue's sentences put around their values (docs/languages.md).
const DIRECTION_CHARACTERS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// `text` without its direction characters: for a value a person edits or sends (a name in a
// form field, which the server refuses with them) and for a name assistive technology reads
// (aria-label, title, placeholder). Text shown on the page keeps them, or uses <bdi>.
export function plain(text) {
  return String(text).replace(DIRECTION_CHARACTERS, "");
}

// `message` in the page's language, its {placeholders} filled from `values`.
export function t(message, values) {
  const shown = Object.hasOwn(data.messages, message) ? data.messages[message] : message;
  return fill(shown, values);
}

// The form of `singular`/`plural` that `count` takes, with {count} and `values` filled in.
export function tn(singular, plural, count, values) {
  const forms = Object.hasOwn(data.plurals, singular) ? data.plurals[singular] : [singular, plural];
  const index = Math.min(pluralIndex(count), forms.length - 1);
  const english = count === 1 ? singular : plural;
  const shown = Object.hasOwn(data.plurals, singular) ? forms[index] : english;
  return fill(shown, { count, ...values });
}

// The server's sentences are written to be joined into others ("the move ... cannot be
// read: ..."); shown on their own they begin with a capital and end with a full stop, in
// every language (a Hebrew one has no capitals: only the stop is added). A sentence that
// starts with a quote ('8H 1+1=11' ...) keeps it as written.
export function sentence(text) {
  const found = /[^\s\u2066-\u2069]/u.exec(text);
  let shown = text;
  if (found && found[0] !== found[0].toUpperCase() && /\p{L}/u.test(found[0])) {
    shown = text.slice(0, found.index) + found[0].toUpperCase() + text.slice(found.index + 1);
  }
  return /[.!?…]["'’”»)\u2069]*\s*$/u.test(shown) ? shown.trimEnd() : `${shown.trimEnd()}.`;
}

// An item of a list or menu (a preset, a level, a choice) begins with a capital, as a name
// does: the catalogue's word is the one a sentence uses ("the learning preset"); a script
// without capitals (Hebrew) is left as it is.
export function listItem(text) {
  return text ? text.charAt(0).toLocaleUpperCase(lang) + text.slice(1) : text;
}
