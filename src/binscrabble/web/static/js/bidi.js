// Text of one direction inside text of another (docs/web.md, "Right to left, and the
// language menu"). A page in Hebrew is right to left, but notation, equations and numbers
// with a sign read left to right in it, and a Latin name keeps its order: each is written in
// an isolate (<bdi>), never reversed, so the DOM's text is the text as written. (Sentences
// from the catalogue isolate their own placeholders: docs/languages.md.)

// Text that reads left to right wherever it sits: notation, an equation, "-12".
export function ltr(text) {
  const node = document.createElement("bdi");
  node.dir = "ltr";
  node.textContent = text;
  return node;
}

// A name as its player wrote it, in its own direction (a Latin name in a Hebrew sentence).
export function named(text) {
  const node = document.createElement("bdi");
  node.textContent = text;
  return node;
}

// Parts joined by a separator, each isolated: they read in the page's direction, the first
// at the left in English and at the right in Hebrew.
export function joined(parts, separator) {
  return parts.flatMap((part, index) => (index ? [separator, part] : [part]));
}
