// The lobby's list of games being played now (GET /api/games), each a link to watch it:
// drawn on load, then again every 10 seconds while the page is in view.

import { getJson } from "./api.js";
import { plain, t, tn } from "./i18n.js";
import { levelName } from "./panels.js";

const EVERY_MS = 10_000;

// "Hal (hard)" for a computer, the name alone for a person.
function seatName(player) {
  return player.computer ? t("{name} ({level})", { name: player.name, level: levelName(player.computer) }) : player.name;
}

function ago(seconds) {
  if (seconds < 60) return t("just now");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t("{minutes} min ago", { minutes });
  const hours = Math.floor(minutes / 60);
  return tn("{count} hour ago", "{count} hours ago", hours);
}

function entry(game) {
  const names = game.players.map(seatName);
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = game.url;
  const players = names.reduce((first, second) => t("{first} vs {second}", { first, second }));
  link.textContent = players;
  link.setAttribute("aria-label", plain(t("Watch {players}", { players })));
  const detail = document.createElement("span");
  detail.className = "hint";
  const scores = game.players.map((player, seat) => `${names[seat]} ${player.score}`).join(", ");
  detail.textContent = t("turn {turn}: {scores}; {name} to move, last move {ago}", {
    turn: game.turn + 1,
    scores,
    name: names[game.to_move],
    ago: ago(game.idle_seconds),
  });
  item.append(link, " ", detail);
  return item;
}

async function draw(list) {
  let answer;
  try {
    answer = await getJson("/api/games");
  } catch {
    return; // the server is away for a moment: the list drawn last stays
  }
  if (!answer.games.length) {
    const empty = document.createElement("li");
    empty.textContent = t("No game is being played right now.");
    list.replaceChildren(empty);
  } else {
    list.replaceChildren(...answer.games.map(entry));
  }
  list.dataset.drawn = String(Number(list.dataset.drawn || 0) + 1);
}

export function showPlaying(list) {
  const drawIfSeen = () => {
    if (document.visibilityState === "visible") draw(list);
  };
  drawIfSeen();
  setInterval(drawIfSeen, EVERY_MS);
  document.addEventListener("visibilitychange", drawIfSeen);
}
