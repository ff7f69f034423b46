// The referee at a real table (INTERFACES.md §9): set up a game, then enter each play laid
// on the real board and see at once whether it is legal and what it scores. One phone passed
// round keeps every seat's token; one phone a player keeps its own (the link of its seat).
// Everything is judged by the server: this page only enters and shows.

import { ApiError, getJson, liveUrl, loadMeta, postJson } from "./api.js";
import { BoardView, COLUMNS, parseSquare } from "./board.js";
import { rulesForm } from "./rules-form.js";
import { faceGlyph, faceName, miniTile } from "./tiles.js";
import { plain, t, tn } from "./i18n.js";

const STORE = "binscrabble.table.";
const FACES = ["0", "1", "=", "+", "-", "x", "/", "&", "|", "~", "^"];

const $ = (id) => document.getElementById(id);

function say(element, text, kind = "") {
  element.replaceChildren();
  element.dataset.kind = kind;
  if (text) {
    const line = document.createElement("p");
    line.className = `verdict ${kind}`;
    line.textContent = text;
    element.append(line);
  }
}

function loadTokens(id) {
  try {
    const tokens = JSON.parse(localStorage.getItem(STORE + id) || "{}");
    return tokens && typeof tokens === "object" ? tokens : {};
  } catch {
    return {};
  }
}

function saveTokens(id, tokens) {
  localStorage.setItem(STORE + id, JSON.stringify(tokens));
}

// A move or an equation written with the tiles' faces (× ÷ − AND OR NOT XOR), as people
// read them; the coordinate and the words (pass, exchange, refused) stay as they are.
const PEOPLE = { x: "×", "/": "÷", "-": "−", "&": " AND ", "|": " OR ", "~": "NOT ", "^": " XOR " };

export function forPeople(text) {
  if (/^-./.test(text)) return t("exchange {tiles}", { tiles: [...text.slice(1)].map((code) => faceName(code)).join(" ") });
  const match = text.match(/^((?:refused )?(?:\d+[A-O]|[A-O]\d+) )(.*)$/);
  const [lead, tiles] = match ? [match[1], match[2]] : ["", text];
  if (!match && !/^[01=+\-x/&|~^()?#]+$/.test(text)) return text;
  const shown = [...tiles].map((code) => PEOPLE[code] || code).join("");
  return lead + shown.replace(/ {2,}/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")").trim();
}

// ---- set-up ------------------------------------------------------------------------------

function nameInputs() {
  const count = Number($("count").value);
  const names = $("names");
  const kept = [...names.querySelectorAll("input")].map((input) => input.value);
  names.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const label = document.createElement("label");
    label.textContent = `${t("Player {number}", { number: seat + 1 })} `;
    const input = document.createElement("input");
    input.name = `name-${seat}`;
    input.maxLength = 40;
    input.value = kept[seat] || "";
    input.placeholder = plain(t("Player {number}", { number: seat + 1 }));
    input.autocomplete = "off";
    label.append(input);
    names.append(label);
  }
}

async function setUp() {
  $("setup").hidden = false;
  const meta = await loadMeta();
  nameInputs();
  $("count").addEventListener("change", nameInputs);
  const rules = rulesForm(meta, {
    preset: $("preset"),
    description: $("preset-description"),
    switches: $("switches"),
  });
  $("table-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const names = [...$("names").querySelectorAll("input")].map(
      (input, seat) => plain(input.value).trim() || plain(t("Player {number}", { number: seat + 1 })),
    );
    const body = {
      players: names.map((name) => ({ name })),
      rules: rules.value(),
      table: true,
      refused_play_loses_turn: $("refused").checked,
    };
    try {
      const created = await postJson("/api/games", body);
      const one = new FormData($("table-form")).get("phones") === "one";
      const tokens = {};
      for (const seat of created.seats) if (one || seat.seat === 0) tokens[seat.seat] = seat.token;
      saveTokens(created.id, tokens);
      const links = {};
      for (const seat of created.seats) links[seat.seat] = seat.url;
      sessionStorage.setItem(STORE + created.id, JSON.stringify(links));
      location.assign(`/table/${created.id}`);
    } catch (problem) {
      say($("setup-status"), problem.message, "illegal");
    }
  });
}

// ---- the game ------------------------------------------------------------------------------

class TablePage {
  constructor(id, meta) {
    this.id = id;
    this.meta = meta;
    this.tokens = loadTokens(id);
    const token = new URLSearchParams(location.search).get("token");
    this.fromLink = Boolean(token);
    this.view = null;
    this.pending = new Map(); // square -> {code, face}
    this.order = []; // squares in the order they were entered
    this.cursor = null;
    this.across = true;
    this.blank = false;
    this.previewSerial = 0;
    this.board = new BoardView($("board"), meta, { onSquare: (name) => this.tapSquare(name) });
    this.pendingToken = token;
  }

  // The token that acts now: the seat to move's, when this phone holds it.
  tokenFor(seat) {
    return seat === null || seat === undefined ? null : this.tokens[seat] || null;
  }

  moverToken() {
    return this.view ? this.tokenFor(this.view.to_move) : null;
  }

  async start() {
    if (this.pendingToken) {
      // A seat's link: find the seat it opens, keep its token, drop it from the address.
      const view = await getJson(`/api/games/${this.id}`, this.pendingToken);
      this.tokens[view.seat] = this.pendingToken;
      saveTokens(this.id, this.tokens);
      history.replaceState(null, "", `/table/${this.id}`);
    }
    this.bind();
    await this.refresh();
    this.buildFaces();
    // Shown once its first view and the faces are drawn: the parts only some seats see (the
    // entry of tiles, the waiting line) are settled, so nothing moves as the page loads.
    $("game").hidden = false;
    this.listen();
  }

  buildFaces() {
    const faces = $("faces");
    const inGame = FACES.filter((face) => face !== "^" || this.view.rules.xor_tiles > 0);
    for (const face of inGame) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "tile face-button";
      button.dataset.face = face;
      button.setAttribute("aria-label", plain(t("face {face}", { face: faceName(face) })));
      const glyph = document.createElement("span");
      glyph.className = `glyph${faceGlyph(face).length > 1 ? " word" : ""}`;
      glyph.textContent = faceGlyph(face);
      button.append(glyph);
      button.addEventListener("click", () => this.pickFace(face));
      faces.append(button);
    }
  }

  bind() {
    $("direction").addEventListener("click", () => {
      this.across = !this.across;
      $("direction").textContent = this.across ? t("Across") : t("Down");
      this.draw();
    });
    $("blank-toggle").addEventListener("click", () => {
      this.blank = !this.blank;
      $("blank-toggle").setAttribute("aria-pressed", String(this.blank));
      $("blank-toggle").classList.toggle("active", this.blank);
    });
    $("undo-tile").addEventListener("click", () => {
      const last = this.order.pop();
      if (last) {
        this.pending.delete(last);
        this.cursor = last;
      }
      this.changed();
    });
    $("clear").addEventListener("click", () => this.clear());
    $("move").addEventListener("input", () => this.preview());
    $("move-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.play();
    });
    $("play").addEventListener("click", () => this.play());
    $("pass").addEventListener("click", () => this.send("pass"));
    $("exchange").addEventListener("click", () => {
      // A count, never text: "exchange -1" would name the tiles − and 1.
      const box = $("exchange-count");
      const count = Number(box.value);
      if (!Number.isInteger(count) || count < Number(box.min || 1) || count > Number(box.max || 9)) {
        say($("status"), t("Give back {low} to {high} tiles: type how many.", { low: box.min || 1, high: box.max || 9 }), "illegal");
        return;
      }
      this.send(`exchange ${count}`);
    });
    $("rack-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.enterRack(this.view.to_move, $("my-rack").value);
    });
    $("analysis").addEventListener("click", (event) => {
      event.preventDefault();
      this.showAnalysis();
    });
  }

  // ---- entering tiles by tapping ----

  tapSquare(name) {
    const { column, row } = parseSquare(name);
    const line = this.view.board[row];
    if (line[column] !== "." && !this.pending.has(name)) {
      say($("status"), t("{square} already holds a tile: tap an empty square.", { square: name }), "illegal");
      return;
    }
    if (this.cursor === name) {
      this.across = !this.across;
      $("direction").textContent = this.across ? t("Across") : t("Down");
    }
    this.cursor = name;
    this.draw();
  }

  pickFace(face) {
    if (!this.cursor) {
      say($("status"), t("Tap the square of the tile first."), "illegal");
      return;
    }
    const square = this.cursor;
    if (!this.pending.has(square)) this.order.push(square);
    this.pending.set(square, { code: this.blank ? "?" : face, face });
    this.blank = false;
    $("blank-toggle").setAttribute("aria-pressed", "false");
    $("blank-toggle").classList.remove("active");
    this.cursor = this.nextEmpty(square);
    this.changed();
  }

  nextEmpty(square) {
    let { column, row } = parseSquare(square);
    for (;;) {
      if (this.across) column += 1;
      else row += 1;
      if (column > 14 || row > 14) return square;
      const name = `${COLUMNS[column]}${row + 1}`;
      if (this.view.board[row][column] === "." && !this.pending.has(name)) return name;
    }
  }

  // The tiles entered, in notation (the server writes it properly in its answer).
  notation() {
    const squares = [...this.pending.keys()].map((name) => ({ name, ...parseSquare(name) }));
    if (!squares.length) return "";
    const rows = new Set(squares.map((square) => square.row));
    const columns = new Set(squares.map((square) => square.column));
    let across;
    if (squares.length === 1) across = this.across;
    else if (rows.size === 1) across = true;
    else if (columns.size === 1) across = false;
    else return null;
    squares.sort((a, b) => (across ? a.column - b.column : a.row - b.row));
    const first = squares[0];
    const last = squares[squares.length - 1];
    let text = "";
    let open = false;
    const end = across ? last.column : last.row;
    for (let step = across ? first.column : first.row; step <= end; step += 1) {
      const column = across ? step : first.column;
      const row = across ? first.row : step;
      const name = `${COLUMNS[column]}${row + 1}`;
      const placed = this.pending.get(name);
      if (placed) {
        if (open) text += ")";
        open = false;
        text += placed.code === "?" ? `?${placed.face}` : placed.face;
      } else {
        const face = this.view.board[row][column];
        if (face === ".") return null;
        if (!open) text += "(";
        open = true;
        text += face;
      }
    }
    if (open) text += ")";
    const coordinate = across
      ? `${first.row + 1}${COLUMNS[first.column]}`
      : `${COLUMNS[first.column]}${first.row + 1}`;
    return `${coordinate} ${text}`;
  }

  changed() {
    const written = this.notation();
    if (written === null) {
      $("move").value = "";
      say($("status"), t("The new tiles must be in one row or column, with no gap."), "illegal");
    } else {
      $("move").value = written;
      this.preview();
    }
    this.draw();
  }

  clear() {
    this.pending.clear();
    this.order = [];
    $("move").value = "";
    say($("status"), "");
    this.draw();
  }

  draw() {
    const last = this.view && this.view.last_move ? this.view.last_move.squares : [];
    const cursor = this.cursor ? { square: this.cursor, across: this.across } : null;
    this.board.render({ view: this.view, pending: this.pending, last, cursor });
  }

  // ---- talking to the server ----

  async preview() {
    const text = $("move").value.trim();
    const token = this.moverToken();
    const serial = (this.previewSerial += 1);
    if (!text || !token) {
      if (!text) say($("status"), "");
      return;
    }
    try {
      const answer = await postJson(`/api/games/${this.id}/preview`, { move: text }, token);
      if (serial !== this.previewSerial) return;
      this.showPreview(answer);
    } catch (problem) {
      if (serial === this.previewSerial) say($("status"), problem.message, "illegal");
    }
  }

  showPreview(answer) {
    const status = $("status");
    if (!answer.legal) {
      say(status, t("Not legal: {reason}", { reason: answer.reason }), "illegal");
      return;
    }
    say(status, t("Legal: {move} scores {score}.", { move: forPeople(answer.notation), score: answer.score }), "legal");
    const list = document.createElement("ul");
    list.className = "runs";
    for (const run of answer.runs) {
      const item = document.createElement("li");
      item.textContent = t("{run} (value {binary} = {value}): {sum}", { run: forPeople(run.text), binary: run.binary, value: run.value, sum: run.sum });
      list.append(item);
    }
    if (answer.bingo) {
      const item = document.createElement("li");
      item.textContent = t("every tile of the rack: +{bingo}", { bingo: answer.bingo });
      list.append(item);
    }
    status.append(list);
  }

  play() {
    const text = $("move").value.trim();
    if (!text) {
      say($("status"), t("Enter the tiles laid first: tap their squares and faces, or type the play."), "illegal");
      return;
    }
    this.send(text);
  }

  async send(text) {
    const token = this.moverToken();
    if (!token) {
      say($("status"), t("This phone does not hold the seat to move: its player enters the move."), "illegal");
      return;
    }
    try {
      const answer = await postJson(
        `/api/games/${this.id}/moves`,
        { move: text, turn: this.view.turn },
        token,
      );
      this.clear();
      this.cursor = null;
      say($("status"), t("{move}: {points}.", { move: answer.notation, points: tn("{count} point", "{count} points", answer.score) }), "legal");
    } catch (problem) {
      const turn = this.view.turn;
      const mover = (this.view.players[this.view.to_move] || { name: "" }).name;
      await this.refresh(true);
      if (this.view.turn !== turn) {
        // The table's rule: a refused play used the turn. The next player starts afresh.
        this.clear();
        this.cursor = null;
        say($("status"), `${mover}: ${problem.message}`, "illegal");
      } else {
        say($("status"), problem.message, "illegal");
      }
      return;
    }
    await this.refresh(true);
  }

  async enterRack(seat, codes) {
    const token = this.tokenFor(seat);
    if (!token) {
      say($("status"), t("This phone does not hold that seat."), "illegal");
      return;
    }
    try {
      await postJson(`/api/games/${this.id}/rack`, { rack: codes.trim() }, token);
      say($("status"), t("Rack entered."), "legal");
      $("my-rack").value = "";
    } catch (problem) {
      say($("status"), problem.message, "illegal");
    }
    await this.refresh(true);
  }

  async refresh(keepStatus = false) {
    const spectator = await getJson(`/api/games/${this.id}`);
    const token = this.tokenFor(spectator.to_move);
    this.view = token ? await getJson(`/api/games/${this.id}`, token) : spectator;
    this.render(keepStatus);
  }

  listen() {
    let socket;
    try {
      socket = new WebSocket(liveUrl(this.id, null));
    } catch {
      return;
    }
    socket.addEventListener("message", (event) => {
      const view = JSON.parse(event.data);
      if (!this.view || view.turn !== this.view.turn || view.over !== this.view.over ||
          JSON.stringify(view.table) !== JSON.stringify(this.view.table)) {
        this.refresh(true);
      }
    });
    socket.addEventListener("close", () => setTimeout(() => this.listen(), 3000));
  }

  // ---- showing the game ----

  render(keepStatus) {
    const view = this.view;
    const names = view.players.map((player) => player.name);
    const over = view.over;
    const settling = view.to_move === null && !over;
    $("turn-info").textContent = over
      ? t("Game over")
      : settling
        ? t("Enter the tiles left")
        : t("{name} to play", { name: names[view.to_move] });
    const mine = Boolean(this.moverToken());
    $("entry").hidden = over || settling || !mine;
    $("waiting").hidden = over || settling || mine;
    if (!over && !settling && !mine) {
      $("waiting").textContent = t("{name} to play: the move is entered on their phone.", { name: names[view.to_move] });
    }
    $("rack-entry").hidden = !this.moverToken();
    $("exchange-count").max = String(view.rules.rack_size || 9);
    this.renderScores(view);
    this.renderSheet(view, names);
    this.renderUnseen(view);
    this.renderEnd(view, names, settling);
    this.renderResult(view, names);
    this.renderLinks();
    if (!keepStatus) say($("status"), "");
    this.draw();
  }

  renderScores(view) {
    const body = $("scores");
    body.replaceChildren();
    view.players.forEach((player, seat) => {
      const row = document.createElement("tr");
      if (seat === view.to_move) row.className = "to-move";
      const name = document.createElement("td");
      name.textContent = player.name;
      const tiles = document.createElement("td");
      tiles.textContent = String(player.tiles);
      const score = document.createElement("td");
      score.className = "score";
      score.setAttribute("aria-label", plain(t("score {name}", { name: player.name })));
      score.textContent = String(player.score);
      row.append(name, tiles, score);
      body.append(row);
    });
    $("bag").textContent = t("Tiles in the bag: {count}", { count: view.bag });
  }

  renderSheet(view, names) {
    const head = $("log-head");
    head.replaceChildren();
    const headRow = document.createElement("tr");
    for (const title of ["#", t("Player"), t("Move"), t("Score"), ...names]) {
      const cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = title;
      headRow.append(cell);
    }
    head.append(headRow);
    const body = $("log");
    body.replaceChildren();
    view.moves.forEach((move, index) => {
      const row = document.createElement("tr");
      const cells = [String(index + 1), names[move.seat], forPeople(move.notation), `+${move.score}`, ...move.running.map(String)];
      for (const text of cells) {
        const cell = document.createElement("td");
        cell.textContent = text;
        row.append(cell);
      }
      body.append(row);
    });
    body.parentElement.parentElement.scrollTop = body.scrollHeight;
  }

  renderUnseen(view) {
    const box = $("unseen");
    box.replaceChildren();
    const title = document.createElement("h3");
    const tiles = tn("{count} tile", "{count} tiles", view.unseen.length);
    title.textContent = view.rack
      ? t("Not on the board (your rack left out): {tiles}", { tiles })
      : t("Not on the board: {tiles}", { tiles });
    const list = document.createElement("ul");
    list.className = "unseen-list";
    const counts = new Map();
    for (const code of view.unseen) counts.set(code, (counts.get(code) || 0) + 1);
    for (const [code, count] of counts) {
      const item = document.createElement("li");
      item.setAttribute("aria-label", `${count} ${faceName(code)}`);
      item.append(miniTile(code), `×${count}`);
      list.append(item);
    }
    box.append(title, list);
  }

  renderEnd(view, names, settling) {
    $("end").hidden = !settling;
    const box = $("end-racks");
    // What was typed survives a redraw (another phone's entry redraws this one).
    const typed = new Map([...box.querySelectorAll("input")].map((input) => [input.id, input.value]));
    box.replaceChildren();
    if (!settling) return;
    for (const seat of view.table.awaiting_racks) {
      const form = document.createElement("form");
      form.className = "move-form";
      const label = document.createElement("label");
      const id = `left-${seat}`;
      label.htmlFor = id;
      label.textContent = t("Tiles left on {name}'s rack", { name: names[seat] });
      const input = document.createElement("input");
      input.id = id;
      input.value = typed.get(id) || "";
      input.autocomplete = "off";
      input.spellcheck = false;
      const button = document.createElement("button");
      button.type = "submit";
      button.textContent = t("Enter");
      button.disabled = !this.tokenFor(seat);
      form.append(label, input, button);
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        this.enterRack(seat, input.value);
      });
      box.append(form);
    }
  }

  renderResult(view, names) {
    $("result").hidden = !view.over;
    if (!view.over) return;
    const result = view.result;
    const body = $("result-body");
    body.replaceChildren();
    const winning = result.winners.map((seat) => names[seat]);
    const winners = winning.length ? winning.reduce((first, second) => t("{first} and {second}", { first, second })) : "";
    const headline = document.createElement("p");
    headline.className = "verdict";
    headline.textContent = result.winners.length > 1 ? t("A draw: {names}", { names: winners }) : t("{name} wins", { name: winners });
    const list = document.createElement("ul");
    names.forEach((name, seat) => {
      const item = document.createElement("li");
      const change = result.adjustments[seat];
      item.textContent = t("{name}: {score} (tiles left {change})", { name, score: result.final[seat], change: `${change >= 0 ? "+" : ""}${change}` });
      list.append(item);
    });
    body.append(headline, list);
    $("download").href = `/api/games/${this.id}/record`;
    $("download").download = `binscrabble-table-${this.id}.bsr`;
  }

  renderLinks() {
    const list = $("link-list");
    list.replaceChildren();
    const add = (text, path) => {
      const item = document.createElement("li");
      const label = document.createElement("span");
      label.textContent = text;
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = new URL(path, location.href).href;
      input.setAttribute("aria-label", plain(text));
      item.append(label, input);
      list.append(item);
    };
    add(t("Follow the game live"), `/table/${this.id}`);
    let seatLinks = {};
    try {
      seatLinks = JSON.parse(sessionStorage.getItem(STORE + this.id) || "{}");
    } catch {
      seatLinks = {};
    }
    const names = this.view.players.map((player) => player.name);
    for (const [seat, url] of Object.entries(seatLinks)) {
      if (!this.tokens[seat]) add(t("{name}'s seat", { name: names[seat] }), url);
    }
  }

  async showAnalysis() {
    const box = $("analysis-body");
    try {
      const answer = await getJson(`/api/games/${this.id}/analysis`);
      box.replaceChildren();
      if (answer.note) {
        say(box, answer.note);
        return;
      }
      const list = document.createElement("ul");
      const names = this.view.players.map((player) => player.name);
      for (const turn of answer.turns) {
        const item = document.createElement("li");
        item.textContent = t("Turn {turn}, {name}: {move} +{score}; best {best} +{best_score}", {
          turn: turn.turn + 1,
          name: names[turn.seat],
          move: turn.played.display,
          score: turn.played.score,
          best: turn.best.display,
          best_score: turn.best.score,
        });
        list.append(item);
      }
      box.append(list);
    } catch (problem) {
      say(box, problem.message, "illegal");
    }
  }
}

async function main() {
  const match = location.pathname.match(/^\/table\/([^/]+)$/);
  if (!match) {
    await setUp();
    return;
  }
  const meta = await loadMeta();
  const page = new TablePage(decodeURIComponent(match[1]), meta);
  try {
    await page.start();
  } catch (problem) {
    $("game").hidden = false;
    say($("status"), problem instanceof ApiError ? problem.message : String(problem), "illegal");
  }
}

main();
