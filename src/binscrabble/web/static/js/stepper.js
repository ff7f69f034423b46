// Stepping through a list of positions (analysis, record viewer): buttons, arrow keys and a
// clickable list of turns, whose box scrolls to keep the current turn in view.

// Scroll the box of turns (never the page) so that `row` shows below its sticky header.
function keepInView(row) {
  const box = row && row.closest(".turns-scroll");
  if (!box) return;
  const head = box.querySelector("thead");
  const edges = box.getBoundingClientRect();
  const top = edges.top + (head ? head.offsetHeight : 0);
  const place = row.getBoundingClientRect();
  if (place.top < top) box.scrollTop -= top - place.top;
  else if (place.bottom > edges.bottom) box.scrollTop += place.bottom - edges.bottom;
}

export function stepper({ count, show, rows }) {
  let index = 0;
  const $ = (id) => document.getElementById(id);
  const go = (next) => {
    index = Math.max(0, Math.min(count() - 1, next));
    show(index);
    rows().forEach((row, at) => {
      row.classList.toggle("current", at === index);
      if (at === index) row.setAttribute("aria-current", "true");
      else row.removeAttribute("aria-current");
    });
    keepInView(rows()[index]);
    $("first").disabled = index === 0;
    $("back").disabled = index === 0;
    $("forward").disabled = index >= count() - 1;
    $("last").disabled = index >= count() - 1;
  };
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(index - 1);
  $("forward").onclick = () => go(index + 1);
  $("last").onclick = () => go(count() - 1);
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowLeft") go(index - 1);
    if (event.key === "ArrowRight") go(index + 1);
  });
  return { go, current: () => index };
}
