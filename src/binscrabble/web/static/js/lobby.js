// The lobby: start a game (computer, hot-seat, online), pick house rules, resume or watch.

import { ApiError, getJson, loadMeta, postJson } from "./api.js";
import { rememberGame, listGames, forgetGame } from "./store.js";
import { rulesForm } from "./rules-form.js";
import { showPlaying } from "./playing.js";
import { listItem, plain, sentence, t } from "./i18n.js";
import { levelName } from "./panels.js";

const form = document.getElementById("new-game");
const status = document.getElementById("status");

function say(text) {
  status.textContent = text;
}

// A refusal of the form, under its button, scrolled into view: on a phone the lobby's
// status line is far below the button the person just pressed.
const formError = document.getElementById("form-error");

function refuse(text) {
  formError.textContent = text;
  if (text) formError.scrollIntoView({ block: "nearest" });
}

function mode() {
  return form.elements.mode.value;
}

function drawNames() {
  const holder = document.getElementById("names");
  const count = Number(form.elements.count.value);
  const kept = [...holder.querySelectorAll("input")].map((input) => input.value);
  holder.replaceChildren();
  for (let seat = 0; seat < count; seat += 1) {
    const label = document.createElement("label");
    label.textContent = `${t("Player {number} name", { number: seat + 1 })} `;
    const input = document.createElement("input");
    input.name = `name${seat}`;
    input.maxLength = 40;
    input.required = true;
    input.value = kept[seat] || plain(t("Player {number}", { number: seat + 1 }));
    label.append(input);
    holder.append(label);
  }
}

function showMode() {
  const computer = mode() === "computer";
  document.getElementById("computer-options").hidden = !computer;
  document.getElementById("people-options").hidden = computer;
}

function playersOfForm() {
  if (mode() === "computer") {
    const human = { name: plain(form.elements.human.value).trim() || plain(t("Player")) };
    const bot = { name: plain(t("Computer")), computer: form.elements.level.value };
    return form.elements.computer_first.checked ? [bot, human] : [human, bot];
  }
  const count = Number(form.elements.count.value);
  const players = [];
  for (let seat = 0; seat < count; seat += 1) {
    const name = plain(form.elements[`name${seat}`].value).trim();
    players.push({ name: name || plain(t("Player {number}", { number: seat + 1 })) });
  }
  return players;
}

function absolute(url) {
  return new URL(url, location.origin).href;
}

function showInvites(created) {
  const list = document.getElementById("invite-list");
  list.replaceChildren();
  for (const seat of created.seats) {
    if (!seat.url) continue;
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = seat.url;
    link.textContent = t("{name}'s seat", { name: seat.name });
    const field = document.createElement("input");
    field.readOnly = true;
    field.dir = "ltr"; // an address reads from its start, in a Hebrew page too
    field.value = absolute(seat.url);
    field.setAttribute("aria-label", plain(t("invite link for {name}", { name: seat.name })));
    const copy = document.createElement("button");
    copy.type = "button";
    copy.textContent = t("Copy");
    copy.setAttribute("aria-label", plain(t("Copy the link for {name}", { name: seat.name })));
    copy.addEventListener("click", async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(field.value);
        say(t("The link for {name} is copied.", { name: seat.name }));
      } catch {
        say(t("Copying is not allowed here: select the link and copy it by hand."));
      }
    });
    item.append(link, " ", field, " ", copy);
    list.append(item);
  }
  // The links take the form's place, where the person is looking (on a phone the form is
  // taller than the screen), and the focus goes to them, so a screen reader reads them.
  form.hidden = true;
  document.getElementById("invites").hidden = false;
  const title = document.getElementById("invites-title");
  title.focus({ preventScroll: true });
  title.closest(".card").scrollIntoView({ block: "start" });
}

// Back from the invite links to the form, for another game.
function showForm() {
  document.getElementById("invites").hidden = true;
  form.hidden = false;
  form.querySelector("input[name=mode]:checked").focus();
}

// The clock chosen (INTERFACES.md §7), or null for an untimed game: "live:SECONDS:INCREMENT"
// or "correspondence:DAYS" in the form.
function clockOfForm() {
  const [kind, first, second] = form.elements.clock.value.split(":");
  if (kind === "live") return { kind, seconds: Number(first), increment: Number(second) };
  if (kind === "correspondence") return { kind, days: Number(first) };
  return null;
}

async function startGame(rules) {
  const players = playersOfForm();
  const clock = clockOfForm();
  refuse("");
  say(t("Starting the game…"));
  let created;
  try {
    created = await postJson("/api/games", { players, rules: rules.value(), ...(clock ? { clock } : {}) });
  } catch (error) {
    say("");
    refuse(error instanceof ApiError ? error.message : String(error));
    return;
  }
  const tokens = {};
  for (const seat of created.seats) if (seat.token) tokens[seat.seat] = seat.token;
  const kind = mode();
  const names = created.seats.map((seat) => seat.name);
  rememberGame({ id: created.id, kind, names, tokens, created: Date.now() });
  const mine = created.seats.find((seat) => seat.url);
  if (kind === "online") {
    showInvites(created);
    say(t("The game is ready: send the invite links, then open your own seat."));
    drawGames();
  } else {
    location.assign(mine.url);
  }
}

function gameLink(game) {
  const seats = Object.keys(game.tokens || {});
  if (!seats.length) return `/games/${encodeURIComponent(game.id)}`;
  const token = game.tokens[seats[0]];
  return `/games/${encodeURIComponent(game.id)}?token=${encodeURIComponent(token)}`;
}

// A game of the list named by its players ("Ann vs Computer"), with its kind when no seat
// says it ("Ann vs Bo (online)").
function gameTitle(game, names) {
  const kinds = { computer: t("computer"), hotseat: t("hotseat"), online: t("online") };
  const kind = Object.hasOwn(kinds, game.kind) ? kinds[game.kind] : t("game");
  const players = names.length ? names.reduce((first, second) => t("{first} vs {second}", { first, second })) : "";
  // A game against the computer whose seat is named "Computer" says it once ("Ann vs
  // Computer", not "Ann vs Computer (computer)").
  const named = game.kind === "computer" && names.includes(plain(t("Computer")));
  return { players, title: named ? players : `${players || game.id} (${kind})` };
}

async function describe(game, line, link, forget) {
  try {
    const view = await getJson(`/api/games/${encodeURIComponent(game.id)}`);
    // The names as the server gives them in the page's language: a computer named by the
    // lobby of another language is named in this one ("Компютър", not "Ordinateur").
    const { players, title } = gameTitle(game, view.players.map((player) => player.name));
    link.textContent = title;
    forget.setAttribute("aria-label", plain(t("Forget the game {players}", { players })));
    const scores = view.players.map((player) => `${player.name} ${player.score}`).join(", ");
    line.textContent = view.over ? t("over: {scores}", { scores }) : t("turn {turn}: {scores}", { turn: view.turn + 1, scores });
  } catch (error) {
    line.textContent = error instanceof ApiError && error.status === 404 ? t("not on this server") : "";
  }
}

function drawGames() {
  const list = document.getElementById("games");
  list.replaceChildren();
  const games = listGames();
  if (!games.length) {
    const empty = document.createElement("li");
    empty.textContent = t("No games yet.");
    list.append(empty);
    return;
  }
  for (const game of games.slice(0, 20)) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = gameLink(game);
    const { players, title } = gameTitle(game, game.names || []);
    link.textContent = title;
    const detail = document.createElement("span");
    detail.className = "hint";
    const forget = document.createElement("button");
    forget.type = "button";
    forget.textContent = t("Remove");
    forget.setAttribute("aria-label", plain(t("Forget the game {players}", { players })));
    forget.addEventListener("click", () => {
      forgetGame(game.id);
      drawGames();
    });
    item.append(link, " ", detail, " ", forget);
    list.append(item);
    describe(game, detail, link, forget);
  }
}

function watchTarget(text) {
  const trimmed = text.trim();
  const match = trimmed.match(/\/games\/([^/?#\s]+)/);
  return match ? match[1] : trimmed;
}

async function main() {
  drawNames();
  showMode();
  document.getElementById("another-game").addEventListener("click", showForm);
  form.elements.count.addEventListener("change", drawNames);
  for (const radio of form.elements.mode) radio.addEventListener("change", showMode);
  document.getElementById("watch").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = watchTarget(event.target.elements.game.value);
    if (id) location.assign(`/games/${encodeURIComponent(id)}`);
  });
  drawGames();
  showPlaying(document.getElementById("playing"));
  let meta;
  try {
    meta = await loadMeta();
  } catch (error) {
    say(error.message);
    return;
  }
  const level = document.getElementById("level");
  for (const entry of meta.levels) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = listItem(levelName(entry.name));
    level.append(option);
  }
  const names = meta.levels.map((entry) => entry.name);
  if (names.includes("medium")) level.value = "medium";
  const describeLevel = () => {
    const entry = meta.levels.find((item) => item.name === level.value);
    // The core's caption ("sees few plays ...") shown as a sentence: a capital, a full stop.
    document.getElementById("level-description").textContent = entry ? sentence(entry.description) : "";
  };
  level.addEventListener("change", describeLevel);
  describeLevel();
  const rules = rulesForm(meta, {
    preset: document.getElementById("preset"),
    description: document.getElementById("preset-description"),
    switches: document.getElementById("switches"),
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    startGame(rules);
  });
}

main();
