// Stepping through a list of positions (analysis, record viewer): buttons, arrow keys and a
// clickable list of turns.

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
