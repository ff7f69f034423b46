// The chart of a game on the analysis and viewer pages, drawn as SVG by the page: every
// seat's total through the game (one line a seat, each its own colour and dash) and, when
// known, the points each turn lost against the computer's best (one bar a turn, under the
// lines). Each turn is a column of the chart: a click in it goes to that turn. The chart is
// drawn at the width of its box (again when that changes), so its text keeps its size.
//
// From the keyboard the chart is one stop of the Tab order: the column of the turn shown
// takes the focus; the arrow keys (Home, End) move the focus from column to column, and
// Enter or Space goes to the focused turn. Each column is a button named with its turn,
// the move, every score after it and the points lost; the focused column is framed.

import { plain, t, tn } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
// Heights in CSS pixels: the lines' panel, the gap, the bars' panel; the margins.
const LINES = 150;
const GAP = 22;
const BARS = 56;
const LEFT = 38;
const RIGHT = 10;
const TOP = 10;
const BOTTOM = 22;

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function label(x, y, text, anchor = "end") {
  return svg("text", { x, y, "text-anchor": anchor, class: "chart-label", "aria-hidden": "true" }, text);
}

// What a turn's column is called: the turn, its move, every score after it, the points lost.
function turnName(turn, names) {
  const scores = names.map((name, seat) => `${name} ${turn.scores[seat] || 0}`).join(", ");
  const known = turn.lost !== null && turn.lost !== undefined;
  const lost = !known ? ""
    : turn.analysed ? tn("{count} point lost", "{count} points lost", turn.lost)
      : tn("at least {count} point lost", "at least {count} points lost", turn.lost);
  const named = t("{turn}; scores: {scores}", { turn: turn.text, scores });
  return known ? t("{turn}; {lost}", { turn: named, lost }) : named;
}

// The last column's name says that its point is the final scores, the end of the game
// settled (the tiles left on the racks, overtime), where the turn's own totals were before.
function finalName(named, final, names) {
  const scores = names.map((name, seat) => `${name} ${final[seat] || 0}`).join(", ");
  return t("{turn}; the chart ends at the final scores, the end of the game settled: {scores}", { turn: named, scores });
}

// A round number at or above `value` for the top of an axis (10, 20, 50, 100, 200, ...).
function roundUp(value) {
  if (value <= 10) return 10;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= value);
  return step * power;
}

// The turn numbers written under the chart: about one every 50 px.
function tickEvery(count, width) {
  const most = Math.max(1, Math.floor(width / 50));
  const step = Math.ceil(count / most);
  return [1, 2, 5, 10, 20, 50].find((nice) => nice >= step) || step;
}

// turns: [{seat, scores: [every seat's total after the turn], lost: number or null,
// analysed: bool, text: what the turn was, for its tooltip}]; current: the turn shown (1 for
// the first turn, 0 for the start); onTurn(number): a turn's column was clicked; final:
// every seat's final score once the game is over and all its turns are charted (the end's
// settlement included: racks, overtime), else null. The lines end at the final scores, so
// the chart's last point is the result the viewer and the end card show, below 0 too.
function draw(host, { names, turns, current, onTurn, final = null }) {
  const count = turns.length;
  const settled = final && count ? final : null;
  const scoresAt = (at) => (settled && at === count - 1 ? settled : turns[at].scores);
  const width = Math.max(240, Math.floor(host.clientWidth));
  const withBars = turns.some((turn) => turn.lost !== null && turn.lost !== undefined);
  const height = TOP + LINES + (withBars ? GAP + BARS : 0) + BOTTOM;
  const plot = width - LEFT - RIGHT;
  const x = (turn) => LEFT + (count ? (turn / count) * plot : 0);
  // The scale runs from the lowest score (below 0 when tiles left on a rack or overtime
  // took more than a player had: the scores' axis then sits above the bottom) to the highest.
  const allScores = turns.flatMap((turn, at) => scoresAt(at));
  const most = roundUp(Math.max(1, ...allScores));
  const lowest = Math.min(0, ...allScores);
  const least = lowest < 0 ? -roundUp(-lowest) : 0;
  const y = (score) => TOP + LINES - ((score - least) / (most - least)) * LINES;
  const barsTop = TOP + LINES + GAP;
  const mostLost = roundUp(Math.max(1, ...turns.map((turn) => turn.lost || 0)));
  const chart = svg("svg", {
    class: "chart-svg",
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: "group",
    "aria-label": withBars
      ? t("Chart of every player's score through the game and of the points lost each turn")
      : t("Chart of every player's score through the game"),
  });
  chart.append(
    svg("line", { x1: LEFT, y1: y(0), x2: width - RIGHT, y2: y(0), class: "chart-axis" }),
    svg("line", { x1: LEFT, y1: y(most), x2: width - RIGHT, y2: y(most), class: "chart-grid" }),
    label(LEFT - 4, y(most) + 4, String(most)),
  );
  // The lowest score's line and label; the 0 label gives way when the two would touch.
  if (least < 0) {
    chart.append(
      svg("line", { x1: LEFT, y1: y(least), x2: width - RIGHT, y2: y(least), class: "chart-grid" }),
      label(LEFT - 4, y(least) + 4, `−${-least}`),
    );
  }
  if (least === 0 || y(least) - y(0) >= 12) chart.append(label(LEFT - 4, y(0) + 4, "0"));
  if (withBars) {
    chart.append(
      svg("line", { x1: LEFT, y1: barsTop, x2: width - RIGHT, y2: barsTop, class: "chart-axis" }),
      label(LEFT - 4, barsTop + 10, t("lost")),
      label(LEFT - 4, barsTop + BARS, String(mostLost)),
    );
  }
  names.forEach((name, seat) => {
    const points = [`${x(0)},${y(0)}`, ...turns.map((turn, at) => `${x(at + 1)},${y(scoresAt(at)[seat] || 0)}`)];
    chart.append(svg("polyline", { points: points.join(" "), class: `chart-line seat-${seat}` }));
  });
  const every = tickEvery(count, plot);
  const column = count ? plot / count : plot;
  turns.forEach((turn, at) => {
    const number = at + 1;
    const name = settled && number === count ? finalName(turnName(turn, names), settled, names) : turnName(turn, names);
    const group = svg("g", {
      class: "chart-turn",
      "data-turn": number,
      role: "button",
      tabindex: number === Math.max(1, current) ? 0 : -1,
      "aria-label": plain(name),
    });
    if (number === current) group.setAttribute("aria-current", "step");
    group.append(svg("title", {}, name));
    group.append(svg("rect", { x: x(number) - column / 2, y: TOP, width: column, height: height - TOP - BOTTOM + 4, class: "chart-hit" }));
    group.append(svg("circle", { cx: x(number), cy: y(scoresAt(at)[turn.seat] || 0), r: 3.5, class: `chart-point seat-${turn.seat}` }));
    if (withBars && turn.lost) {
      const tall = (turn.lost / mostLost) * BARS;
      const bar = Math.max(2, Math.min(14, column * 0.7));
      const kind = turn.analysed ? "" : " unsure";
      group.append(svg("rect", { x: x(number) - bar / 2, y: barsTop, width: bar, height: tall, class: `chart-bar seat-${turn.seat}${kind}` }));
    }
    group.addEventListener("click", () => onTurn(number));
    group.addEventListener("keydown", (event) => onKey(event, chart, number, count, onTurn));
    chart.append(group);
    if (number === 1 || number % every === 0) chart.append(label(x(number), height - 6, String(number), "middle"));
  });
  if (count && current > 0) {
    chart.append(svg("line", { x1: x(current), y1: TOP, x2: x(current), y2: height - BOTTOM, class: "chart-current" }));
  }
  const legend = document.createElement("p");
  legend.className = "chart-legend";
  names.forEach((name, seat) => {
    const key = svg("svg", { width: 26, height: 10, "aria-hidden": "true" },
      svg("line", { x1: 0, y1: 5, x2: 26, y2: 5, class: `chart-line seat-${seat}` }));
    const item = document.createElement("span");
    item.append(key, ` ${name}`);
    legend.append(item);
  });
  if (withBars) {
    const item = document.createElement("span");
    item.textContent = t("bars: points lost against the computer's best");
    legend.append(item);
  }
  // A redraw (a turn chosen, a new width) keeps the keyboard's focus on the same column.
  const focused = host.contains(document.activeElement) && document.activeElement.dataset
    ? Number(document.activeElement.dataset.turn) : 0;
  host.replaceChildren(chart, legend);
  if (focused) focusTurn(chart, focused);
}

function focusTurn(chart, number) {
  const column = chart.querySelector(`.chart-turn[data-turn="${number}"]`);
  if (!column) return;
  for (const other of chart.querySelectorAll(".chart-turn[tabindex='0']")) other.setAttribute("tabindex", "-1");
  column.setAttribute("tabindex", "0");
  column.focus();
}

// The keys of a focused column: arrows, Home and End move the focus (the page's own arrow
// keys, which step through the turns, are not told); Enter and Space go to the turn.
function onKey(event, chart, number, count, onTurn) {
  const moves = { ArrowLeft: number - 1, ArrowDown: number - 1, ArrowRight: number + 1, ArrowUp: number + 1, Home: 1, End: count };
  if (event.key in moves) {
    event.preventDefault();
    event.stopPropagation();
    focusTurn(chart, Math.max(1, Math.min(count, moves[event.key])));
  } else if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    event.stopPropagation();
    onTurn(number);
  }
}

// A chart that redraws itself when its box changes width; update() draws new facts.
export function gameChart(host) {
  let facts = null;
  let drawnWidth = 0;
  const update = (next) => {
    facts = next;
    drawnWidth = host.clientWidth;
    draw(host, facts);
  };
  new ResizeObserver(() => {
    if (facts && host.clientWidth !== drawnWidth) update(facts);
  }).observe(host);
  return { update };
}
