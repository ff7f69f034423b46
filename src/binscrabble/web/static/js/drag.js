// Dragging a tile with Pointer Events, so mouse, pen and touch behave alike. A press that
// does not move is left to the click handlers (click a tile, then a square).

const THRESHOLD = 6;

export function startDrag(event, { ghost, glyph, onDrop }) {
  if (event.button !== undefined && event.button !== 0) return;
  const source = event.currentTarget instanceof Element ? event.currentTarget : event.target;
  const startX = event.clientX;
  const startY = event.clientY;
  const pointer = event.pointerId;
  let dragging = false;

  const move = (moveEvent) => {
    if (moveEvent.pointerId !== pointer) return;
    const dx = moveEvent.clientX - startX;
    const dy = moveEvent.clientY - startY;
    if (!dragging && Math.hypot(dx, dy) < THRESHOLD) return;
    if (!dragging) {
      dragging = true;
      ghost.textContent = glyph;
      ghost.hidden = false;
      source.classList.add("dragging");
    }
    moveEvent.preventDefault();
    ghost.style.left = `${moveEvent.clientX}px`;
    ghost.style.top = `${moveEvent.clientY}px`;
  };
  const finish = (upEvent) => {
    if (upEvent.pointerId !== pointer) return;
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", finish);
    window.removeEventListener("pointercancel", finish);
    source.classList.remove("dragging");
    ghost.hidden = true;
    if (!dragging || upEvent.type === "pointercancel") return;
    const target = document.elementFromPoint(upEvent.clientX, upEvent.clientY);
    onDrop(target);
  };
  window.addEventListener("pointermove", move, { passive: false });
  window.addEventListener("pointerup", finish);
  window.addEventListener("pointercancel", finish);
}
