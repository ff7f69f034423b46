// The side panels of a game page: scores, bag and unseen tiles, the move log, the result.

import { isolated, joined, ltr, named } from "./bidi.js";
import { countCodes, faceName, miniTile } from "./tiles.js";
import { lang, plain, t, tn } from "./i18n.js";

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

// A score as people write it: a negative one with the minus sign (U+2212, as the rest of
// the page: the clocks, the adjustments), never the hyphen; drawn left to right in every
// language ("−10", not "10−" in Hebrew).
export function scoreText(number) {
  return ltr(number < 0 ? `−${-number}` : String(number));
}

// A seat that left the game (INTERFACES.md §7), as the scores say it.
const LEFT = { resigned: t("(resigned)"), time: t("(out of time)") };

export function drawScores(body, view) {
  body.replaceChildren();
  view.players.forEach((player, seat) => {
    const mover = view.to_move === seat;
    const who = playerTitle(player);
    const you = (view.seat === seat ? ` — ${t("you")}` : "") + (LEFT[player.left] ? ` ${LEFT[player.left]}` : "");
    // A seat that left the game has its reason in the row instead of its rack's count
    // ("Noa — you (out of time)" was cut to "(out of ti…" before "9 tiles" on a phone).
    const counted = Number.isInteger(player.tiles) && !LEFT[player.left];
    const tiles = counted ? el("span", { class: "rack-count", text: ` ${tileCount(player.tiles)}` }) : null;
    const row = el(
      "tr",
      { class: mover ? "to-move" : "", "aria-current": mover ? "true" : null },
      el("th", { scope: "row" }, el("span", { class: "seat-line" },
        ...(mover ? [el("span", { class: "to-move-mark", text: "▶" }), " "] : []),
        el("span", { class: "seat-name" }, named(who), you), tiles)),
      el("td", { class: "score", "aria-label": plain(t("score {name}", { name: player.name })) }, scoreText(player.score)),
    );
    body.append(row);
  });
}

// A player as the scores name them: a computer with its level, "Computer (hard)", or
// "Bot (computer, hard)" when its name does not say it is one.
export function playerTitle(player) {
  if (!player.computer) return player.name;
  const level = levelName(player.computer);
  if (/computer/i.test(player.name) || player.name === t("Computer")) return t("{name} ({level})", { name: player.name, level });
  return t("{name} (computer, {level})", { name: player.name, level });
}

// A computer's turn while it thinks. The seat the lobby named "Computer" is the computer
// ("The computer is thinking…", Hebrew "של המחשב", Bulgarian "Компютърът"): said as its
// name, "Computer is thinking…" read as a person's name, and "של מחשב" as "of a computer".
export function thinking(player) {
  if (plain(player.name) === plain(t("Computer"))) return t("The computer is thinking…");
  return t("{name} is thinking…", { name: player.name });
}

// A computer level as people read it (the level's code when it has no name here).
export function levelName(level) {
  const names = { beginner: t("beginner"), easy: t("easy"), medium: t("medium"), hard: t("hard"), max: t("max") };
  return Object.hasOwn(names, level) ? names[level] : level;
}

// A number of tiles, agreeing: "1 tile", "2 tiles".
export function tileCount(number) {
  return tn("{count} tile", "{count} tiles", number);
}

export function drawBag(bagLine, unseenBox, view, order) {
  bagLine.replaceChildren(...isolated(t("Bag: {tiles}", { tiles: tileCount(view.bag) })));
  unseenBox.replaceChildren();
  if (typeof view.unseen !== "string") return;
  const title = view.seat === undefined || view.seat === null ? t("Not on the board") : t("Unseen by you");
  const list = el("ul", { class: "unseen-list", "aria-label": plain(t("{title}: {tiles}", { title, tiles: tileCount(view.unseen.length) })) });
  for (const { code, count } of countCodes(view.unseen, order)) {
    list.append(
      el("li", { "aria-label": `${count} ${faceName(code)}` }, miniTile(code), `×${count}`),
    );
  }
  unseenBox.append(el("h3", { text: `${title} (${view.unseen.length})` }), list);
}

// What a blank in brackets means, wherever moves are written (the pages say it under the
// moves too, in #blank-legend).
export const BLANK_LEGEND = t("Blanks are written in brackets with the face they were given: [1] is a blank played as 1.");

export function drawLog(head, body, view) {
  head.replaceChildren(
    el("tr", {}, el("th", { scope: "col", text: "#" }), el("th", { scope: "col", text: t("Player") }),
      el("th", { scope: "col", text: t("Move"), title: BLANK_LEGEND }), el("th", { scope: "col", text: t("Points") }),
      el("th", { scope: "col" }, ...joined(view.players.map((player) => named(player.name)), " – "))),
  );
  body.replaceChildren();
  const amid = departuresAmid(view);
  const departed = (turn) => amid.filter((left) => left.turn === turn).map((left) => departureRow(view, left));
  view.moves.forEach((move, index) => {
    body.append(...departed(index));
    const player = view.players[move.seat];
    const running = Array.isArray(move.running) ? joined(move.running.map((total) => scoreText(total)), " – ") : [];
    body.append(
      el("tr", {}, el("td", { text: String(index + 1) }), el("td", { text: player ? player.name : t("seat {seat}", { seat: move.seat }) }),
        moveCellElement(move), el("td", {}, scoreText(move.score)),
        el("td", {}, ...running)),
    );
  });
  body.append(...amid.filter((left) => left.turn >= view.moves.length).map((left) => departureRow(view, left)));
  // A game a seat ended (resigned, ran out of time, aborted) ends its log with a line
  // saying so, after the last move.
  if (view.end && Number.isInteger(view.end.seat)) {
    const line = [endSentence(view), abortNote(view)].filter(Boolean).join(" ");
    body.append(el("tr", { class: "log-end" }, el("td", { text: "—" }), el("td", { colSpan: 4, text: line })));
  }
  const scroller = body.closest(".log-scroll");
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
}

// The seats that left a game of three or four (resigned, ran out of time) while the others
// played on: every departure but the one that ended the game, which the end line says.
export function departuresAmid(view) {
  const all = view.departures || [];
  const ended = view.end && Number.isInteger(view.end.seat) && all.length && all[all.length - 1].seat === view.end.seat;
  return ended ? all.slice(0, -1) : all;
}

// A departure as a sentence: "Ann resigned.", "Ann ran out of time.".
export function departureSentence(name, reason) {
  return reason === "time" ? t("{name} ran out of time.", { name }) : t("{name} resigned.", { name });
}

// A departure's line in a log of moves, at its place.
export function departureRow(view, left) {
  const name = view.players[left.seat] ? view.players[left.seat].name : "";
  return el("tr", { class: "log-departure" }, el("td", { text: "—" }), el("td", { colSpan: 4, text: departureSentence(name, left.reason) }));
}

export function drawResult(box, view) {
  box.replaceChildren();
  const result = view.result;
  if (!result) return;
  const names = view.players.map((player) => player.name);
  box.append(el("p", { class: "headline", text: winnersSentence(view) }));
  const why = endSentence(view);
  if (why) box.append(el("p", { class: "end-reason", text: why }));
  const note = abortNote(view);
  if (note) box.append(el("p", { class: "abort-note", text: note }));
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
    el("thead", {}, el("tr", {}, el("th", { text: t("Player") }), el("th", { text: t("Before") }),
      el("th", { text: t("Racks") }), overtime ? el("th", { text: t("Overtime") }) : null,
      el("th", { text: t("Final") }))));
  const rows = el("tbody");
  names.forEach((name, seat) => {
    const adjustment = (result.adjustments || [])[seat] || 0;
    const penalty = penalties[seat] || 0;
    const final = (result.final || [])[seat];
    const before = final - adjustment + penalty;
    const sign = adjustment > 0 ? `+${adjustment}` : adjustment < 0 ? `−${-adjustment}` : "0";
    rows.append(el("tr", {}, el("th", { scope: "row" }, named(name)), el("td", {}, scoreText(before)),
      el("td", {}, ltr(sign)), overtime ? el("td", {}, ltr(penalty ? `−${penalty}` : "0")) : null,
      el("td", {}, scoreText(final))));
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
    el("thead", {}, el("tr", {}, el("th", { text: t("Player") }),
      overtime ? el("th", { text: t("Overtime") }) : null, el("th", { text: t("Final") }))));
  const rows = el("tbody");
  names.forEach((name, seat) => {
    const penalty = penalties[seat] || 0;
    rows.append(el("tr", {}, el("th", { scope: "row", text: name }),
      overtime ? el("td", {}, ltr(penalty ? `−${penalty}` : "0")) : null,
      el("td", {}, scoreText((result.final || [])[seat]))));
  });
  table.append(rows);
  return table;
}

export function points(number) {
  return tn("{count} point", "{count} points", number);
}

// How many tiles an exchange gave back, from its notation (`-01?`, or `exchange 3` as
// another seat's exchange is logged); null for any other move.
export function exchangedCount(notation) {
  const hidden = /^exchange (\d+)$/.exec(notation);
  if (hidden) return Number(hidden[1]);
  if (notation.startsWith("exchange ")) return notation.slice("exchange ".length).replace(/\s/g, "").length;
  if (notation.startsWith("-") && notation.length > 1) return notation.length - 1;
  return null;
}

// The tiles of an exchange the reader knows (the seat's own: `-01?`, `exchange 01?`), by
// their faces ("0 1 blank"); null for another seat's (`exchange 3`, its size only) or any
// other move.
export function exchangedFaces(notation) {
  if (/^exchange \d+$/.test(notation) || exchangedCount(notation) === null) return null;
  const codes = notation.startsWith("-") ? notation.slice(1) : notation.slice("exchange ".length);
  return [...codes.replace(/\s/g, "")].map(faceName).join(" ");
}

// The tiles of an exchange the reader knows as a list of the page's language ("0, 0 and
// OR", "0, 0 et OR", "0, × и OR"); null as exchangedFaces.
export function exchangedList(notation) {
  const faces = exchangedFaces(notation);
  if (faces === null) return null;
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(faces.split(" "));
}

// The computer's best move of an analysed turn as a sentence: a play by its tiles and
// points; an exchange or a pass in words, never in notation ("exchange 0 × OR").
export function bestSentence(move) {
  if (move.notation === "pass" || move.notation === "-") return t("The computer's best: passing.");
  const count = exchangedCount(move.notation);
  const tiles = exchangedList(move.notation);
  if (count !== null && tiles !== null) {
    return tn("The computer's best: exchanging {count} tile ({tiles}).", "The computer's best: exchanging {count} tiles ({tiles}).", count, { tiles });
  }
  return t("The computer's best: {best} for {best_points}.", { best: move.display, best_points: points(move.score) });
}

// A hint's title: a play by its tiles and points; an exchange in words with its tiles
// ("Hint: exchange 0, 0 and OR"), a pass in words, never in notation.
export function hintTitle(answer) {
  if (answer.notation === "pass" || answer.notation === "-") return t("Hint: pass");
  const tiles = exchangedList(answer.notation);
  if (tiles !== null) return t("Hint: exchange {tiles}", { tiles });
  return t("Hint: {move} for {points}", { move: answer.display, points: points(answer.score) });
}

// A move as a cell of a table of moves (the moves log, the analysis and the viewer) says
// it: a play by its tiles' faces as the server writes it (`display`); a pass and an
// exchange in words, after the player's name in the cell before ("passed", "exchanged 3
// tiles", "exchanged 2 tiles: 0 NOT" when the reader knows them), never the notation's
// words "pass" and "exchange".
export function moveCell(move) {
  if (move.notation === "pass" || move.notation === "-") return t("passed");
  const count = exchangedCount(move.notation);
  if (count === null) return move.display;
  const tiles = exchangedFaces(move.notation);
  if (tiles === null) return tn("exchanged {count} tile", "exchanged {count} tiles", count);
  return tn("exchanged {count} tile: {tiles}", "exchanged {count} tiles: {tiles}", count, { tiles });
}

// That cell: a play left to right in its notation's font, words in the page's direction.
export function moveCellElement(move) {
  const text = moveCell(move);
  if (text !== move.display) return el("td", { class: "move-words", text });
  return el("td", { class: "notation" }, ltr(move.display));
}

// A move ({notation, display, score}) said as what the player did, without a full stop, to
// go inside a longer sentence: "Ann passed", "Ann exchanged 3 tiles", "Ann played 8H 1=1
// for 4 points". A pass or an exchange is never said as "played pass for 0 points".
export function moveClause(name, move) {
  if (move.notation === "pass" || move.notation === "-") return t("{name} passed", { name });
  const count = exchangedCount(move.notation);
  if (count !== null) return t("{name} exchanged {tiles}", { name, tiles: tileCount(count) });
  return t("{name} played {move} for {points}", { name, move: move.display, points: points(move.score) });
}

// The same move as a sentence of its own: "Ann passed.", "Ann exchanged 3 tiles.".
export function moveSentence(name, move) {
  if (move.notation === "pass" || move.notation === "-") return t("{name} passed.", { name });
  const count = exchangedCount(move.notation);
  if (count !== null) return t("{name} exchanged {tiles}.", { name, tiles: tileCount(count) });
  return t("{name} played {move} for {points}.", { name, move: move.display, points: points(move.score) });
}

// Who won a finished game: "Ann wins.", a draw, or nobody (an aborted game).
export function winnersSentence(view) {
  const names = view.players.map((player) => player.name);
  const winners = (view.result.winners || []).map((seat) => names[seat]);
  if (!winners.length) return t("Nobody wins.");
  if (winners.length === 1) return t("{name} wins.", { name: winners[0] });
  const together = winners.reduce((first, second) => t("{first} and {second}", { first, second }));
  return t("A draw between {names}.", { names: together });
}

// Why the game ended: the view's end (INTERFACES.md §7) for a seat that resigned, ran out
// of time or aborted, else the outcome's reason code ("out" or "scoreless").
export function endSentence(view) {
  const end = view.end;
  const name = end && Number.isInteger(end.seat) ? view.players[end.seat].name : "";
  if (end && end.reason === "resigned") return t("{name} resigned.", { name });
  if (end && end.reason === "time") return t("{name} ran out of time.", { name });
  if (end && end.reason === "aborted") {
    // The server aborts a game for a seat whose time ran out before its first move, or
    // that never opened the game (end.cause, docs/web.md).
    if (end.cause === "time") return t("{name}'s time ran out before their first move: the game is aborted.", { name });
    if (end.cause === "absent") return t("{name} never opened the game: it is aborted.", { name });
    return t("{name} aborted the game.", { name });
  }
  const reason = view.result.reason;
  if (reason === "scoreless") return t("Six scoreless turns in a row ended the game: each player loses the points of the tiles left on their rack.");
  if (reason !== "out") return reason || "";
  const out = view.players.findIndex((player) => player.tiles === 0);
  if (out < 0) return t("A player went out with the bag empty and gains the points of the tiles left on the other racks.");
  return t("{name} went out with the bag empty and gains the points of the tiles left on the other racks.", { name: view.players[out].name });
}

// Why the moves of an aborted game count for nothing, said when some were played (the
// player who moved first sees the score of that move vanish with the result): "" for any
// other game. An abort is allowed until every seat has moved once, whether a seat chose it
// or the server aborted the game for a seat that ran out of time before its first move.
export function abortNote(view) {
  if (!view.end || view.end.reason !== "aborted" || !view.moves.length) return "";
  return t("A game can be aborted until every player has moved once; it then has no winner, and the moves already played do not count.");
}

// One run of a preview or hint as a sentence: the equation, its value in binary and decimal.
export function describeRun(run) {
  const known = run.value !== null && run.value !== undefined;
  const values = { run: run.display, binary: run.binary, value: run.value, bonus: run.bonus, points: points(run.score), sum: run.sum };
  if (run.sum) {
    return known ? t("{run}: value {binary} in binary, {value} in decimal — {sum}", values) : t("{run} — {sum}", values);
  }
  return known ? t("{run}: value {binary} in binary, {value} in decimal, bonus {bonus}: {points}", values) : t("{run}, bonus {bonus}: {points}", values);
}
