// The side panels of a game page: scores, bag and unseen tiles, the move log, the result.

import { joined, ltr, named } from "./bidi.js";
import { countCodes, faceName, miniTile } from "./tiles.js";

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("aria-") || key.startsWith("data-") || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// A seat that left the game (INTERFACES.md §7), as the scores say it.
const LEFT = { resigned: " (resigned)", time: " (out of time)" };

export function drawScores(body, view) {
  body.replaceChildren();
  view.players.forEach((player, seat) => {
    const mover = view.to_move === seat;
    const who = playerTitle(player);
    const you = (view.seat === seat ? " — you" : "") + (LEFT[player.left] || "");
    const tiles = Number.isInteger(player.tiles) ? el("span", { class: "rack-count", text: ` ${count(player.tiles, "tile")}` }) : null;
    const row = el(
      "tr",
      { class: mover ? "to-move" : "", "aria-current": mover ? "true" : null },
      el("th", { scope: "row" }, ...(mover ? [el("span", { class: "to-move-mark", text: "▶" }), " "] : []), named(who), you, tiles),
      el("td", { class: "score", "aria-label": `score ${player.name}` }, ltr(String(player.score))),
    );
    body.append(row);
  });
}

// A player as the scores name them: a computer with its level, "Computer (hard)", or
// "Bot (computer, hard)" when its name does not say it is one.
export function playerTitle(player) {
  if (!player.computer) return player.name;
  const said = /computer/i.test(player.name) ? "" : "computer, ";
  return `${player.name} (${said}${player.computer})`;
}

// A number and its noun, agreeing: "1 tile", "2 tiles".
export function count(number, noun) {
  return `${number} ${noun}${number === 1 ? "" : "s"}`;
}

export function drawBag(bagLine, unseenBox, view, order) {
  bagLine.textContent = `Bag: ${count(view.bag, "tile")}`;
  unseenBox.replaceChildren();
  if (typeof view.unseen !== "string") return;
  const title = view.seat === undefined || view.seat === null ? "Not on the board" : "Unseen by you";
  const list = el("ul", { class: "unseen-list", "aria-label": `${title}: ${count(view.unseen.length, "tile")}` });
  for (const { code, count } of countCodes(view.unseen, order)) {
    list.append(
      el("li", { "aria-label": `${count} ${faceName(code)}` }, miniTile(code), `×${count}`),
    );
  }
  unseenBox.append(el("h3", { text: `${title} (${view.unseen.length})` }), list);
}

// What a blank in brackets means, wherever moves are written (the pages say it under the
// moves too, in #blank-legend).
export const BLANK_LEGEND = "Blanks are written in brackets with the face they were given: [1] is a blank played as 1.";

export function drawLog(head, body, view) {
  head.replaceChildren(
    el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", text: "Player" }),
      el("th", { scope: "col", text: "Move", title: BLANK_LEGEND }), el("th", { scope: "col", text: "Points" }),
      el("th", { scope: "col" }, ...joined(view.players.map((player) => named(player.name)), " – "))),
  );
  body.replaceChildren();
  view.moves.forEach((move, index) => {
    const player = view.players[move.seat];
    const running = Array.isArray(move.running) ? joined(move.running.map((total) => ltr(String(total))), " – ") : [];
    body.append(
      el("tr", {}, el("td", { text: String(index + 1) }), el("td", { text: player ? player.name : `seat ${move.seat}` }),
        el("td", { class: "notation" }, ltr(move.display)), el("td", {}, ltr(String(move.score))),
        el("td", {}, ...running)),
    );
  });
  // A game a seat ended (resigned, ran out of time, aborted) ends its log with a line
  // saying so, after the last move.
  if (view.end && Number.isInteger(view.end.seat)) {
    body.append(el("tr", { class: "log-end" }, el("td", { text: "—" }), el("td", { colSpan: 4, text: endSentence(view) })));
  }
  const scroller = body.closest(".log-scroll");
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
}

export function drawResult(box, view) {
  box.replaceChildren();
  const result = view.result;
  if (!result) return;
  const names = view.players.map((player) => player.name);
  box.append(el("p", { class: "headline", text: winnersSentence(view) }));
  const why = endSentence(view);
  if (why) box.append(el("p", { class: "end-reason", text: why }));
  // An aborted game's scores count for nothing: no table. A game a seat ended by
  // resigning or running out of time had no rack adjustments: its scores only.
  if (result.reason === "aborted") return;
  if (result.reason === "resigned" || result.reason === "time") {
    box.append(finalScores(names, result));
    return;
  }
  // Overtime penalties of a live clock (INTERFACES.md §7) get a column when there are any.
  const penalties = result.penalties || [];
  const overtime = penalties.some((points) => points);
  const table = el("table", { class: "adjustments" },
    el("thead", {}, el("tr", {}, el("th", { text: "Player" }), el("th", { text: "Before" }),
      el("th", { text: "Racks" }), overtime ? el("th", { text: "Overtime" }) : null,
      el("th", { text: "Final" }))));
  const rows = el("tbody");
  names.forEach((name, seat) => {
    const adjustment = (result.adjustments || [])[seat] || 0;
    const penalty = penalties[seat] || 0;
    const final = (result.final || [])[seat];
    const before = final - adjustment + penalty;
    const sign = adjustment > 0 ? `+${adjustment}` : adjustment < 0 ? `−${-adjustment}` : "0";
    rows.append(el("tr", {}, el("th", { scope: "row" }, named(name)), el("td", {}, ltr(String(before))),
      el("td", {}, ltr(sign)), overtime ? el("td", {}, ltr(penalty ? `−${penalty}` : "0")) : null,
      el("td", {}, ltr(String(final)))));
  });
  table.append(rows);
  box.append(table);
}

// The final scores of a game that ended before it was played out, with the overtime
// penalties of a live clock when there are any.
function finalScores(names, result) {
  const penalties = result.penalties || [];
  const overtime = penalties.some((points) => points);
  const table = el("table", { class: "adjustments" },
    el("thead", {}, el("tr", {}, el("th", { text: "Player" }),
      overtime ? el("th", { text: "Overtime" }) : null, el("th", { text: "Final" }))));
  const rows = el("tbody");
  names.forEach((name, seat) => {
    const penalty = penalties[seat] || 0;
    rows.append(el("tr", {}, el("th", { scope: "row", text: name }),
      overtime ? el("td", { text: penalty ? `−${penalty}` : "0" }) : null,
      el("td", { text: String((result.final || [])[seat]) })));
  });
  table.append(rows);
  return table;
}

export function points(number) {
  return count(number, "point");
}

// Who won a finished game: "Ann wins.", a draw, or nobody (an aborted game).
export function winnersSentence(view) {
  const names = view.players.map((player) => player.name);
  const winners = (view.result.winners || []).map((seat) => names[seat]);
  if (!winners.length) return "Nobody wins.";
  return winners.length === 1 ? `${winners[0]} wins.` : `A draw between ${winners.join(" and ")}.`;
}

// Why the game ended: the view's end (INTERFACES.md §7) for a seat that resigned, ran out
// of time or aborted, else the outcome's reason code ("out" or "scoreless").
export function endSentence(view) {
  const end = view.end;
  const name = end && Number.isInteger(end.seat) ? view.players[end.seat].name : "";
  if (end && end.reason === "resigned") return `${name} resigned.`;
  if (end && end.reason === "time") return `${name} ran out of time.`;
  if (end && end.reason === "aborted") {
    // The server aborts a game for a seat whose time ran out before its first move, or
    // that never opened the game (end.cause, docs/web.md).
    if (end.cause === "time") return `${name}'s time ran out before their first move: the game is aborted.`;
    if (end.cause === "absent") return `${name} never opened the game: it is aborted.`;
    return `${name} aborted the game.`;
  }
  const reason = view.result.reason;
  if (reason === "scoreless") return "Six scoreless turns in a row ended the game: each player loses the points of the tiles left on their rack.";
  if (reason !== "out") return reason || "";
  const out = view.players.findIndex((player) => player.tiles === 0);
  const who = out >= 0 ? view.players[out].name : "A player";
  return `${who} went out with the bag empty and gains the points of the tiles left on the other racks.`;
}

// One run of a preview or hint as a sentence: the equation, its value in binary and decimal.
export function describeRun(run) {
  const value = run.value === null || run.value === undefined ? "" : `: value ${run.binary} in binary, ${run.value} in decimal`;
  const sum = run.sum ? ` — ${run.sum}` : `, bonus ${run.bonus}: ${points(run.score)}`;
  return `${run.display}${value}${sum}`;
}
