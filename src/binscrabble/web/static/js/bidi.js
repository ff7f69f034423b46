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

// A name as its player wrote it, in its own direction (a Latin name in a Hebrew sentence);
// a catalogue's words around it ("{name} ({level})") keep their isolates as <bdi>.
export function named(text) {
  const node = document.createElement("bdi");
  node.append(...isolated(text));
  return node;
}

const OPENS = { "\u2066": "ltr", "\u2067": "rtl", "\u2068": "" };

// A catalogue's sentence with its isolate characters (U+2066 LRI, U+2067 RLI, U+2068 FSI
// ... U+2069 PDI) made <bdi> elements: drawn the same, while the text that assistive
// technology reads, a row's or a paragraph's, holds no invisible character (docs/web.md).
export function isolated(text) {
  const top = [];
  const open = [];
  const add = (part) => {
    if (!part) return;
    if (open.length) open[open.length - 1].append(part);
    else top.push(part);
  };
  for (const part of String(text).split(/([\u2066-\u2069])/u)) {
    if (Object.hasOwn(OPENS, part)) {
      const node = document.createElement("bdi");
      if (OPENS[part]) node.dir = OPENS[part];
      add(node);
      open.push(node);
    } else if (part === "\u2069") {
      open.pop();
    } else {
      add(part);
    }
  }
  return top;
}

// Parts joined by a separator, each isolated: they read in the page's direction, the first
// at the left in English and at the right in Hebrew.
export function joined(parts, separator) {
  return parts.flatMap((part, index) => (index ? [separator, part] : [part]));
}
