// Games that end (INTERFACES.md §7) on the game page: each seat's clock, ticking for the
// seat whose time runs, and the Resign and Abort buttons.
//
// The server keeps the time. A view's clock gives each seat's time left as of the moment
// the view was built; the page counts down from the moment the view arrived, so a reload or
// a second device shows the same times. When a time runs out the server ends the game and
// sends the new view: the page never decides that on its own.

import { postJson } from "./api.js";
import { el } from "./panels.js";
import { plain, t, tn } from "./i18n.js";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const two = (number) => String(number).padStart(2, "0");
// Points a seat loses for each minute of overtime it started (INTERFACES.md §7).
const OVERTIME_PENALTY = 10;

// A time left as a person reads it: "4:05", "1:02:03", "−0:12" in overtime; a
// correspondence clock in days and hours ("2 days 3 h", "5 h 20 min").
export function formatClock(ms, kind) {
  if (kind === "correspondence" && ms >= HOUR) {
    const days = Math.floor(ms / DAY);
    const hours = Math.floor((ms % DAY) / HOUR);
    if (days) return t("{days} {hours} h", { days: tn("{count} day", "{count} days", days), hours });
    return t("{hours} h {minutes} min", { hours, minutes: Math.floor((ms % HOUR) / MINUTE) });
  }
  // Seconds are shown rounded toward the deadline's side: 4.2 s left reads 0:05, and the
  // first second of overtime still reads 0:00.
  const over = ms < 0;
  const seconds = over ? Math.floor(-ms / SECOND) : Math.ceil(ms / SECOND);
  const text = seconds >= 3600
    ? `${Math.floor(seconds / 3600)}:${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`
    : `${Math.floor(seconds / 60)}:${two(seconds % 60)}`;
  return over && seconds > 0 ? `−${text}` : text;
}

// Until every person has opened the game no clock runs: the sentence that says whom the
// game waits for (the status line says it in place of whose turn it is), or "" when no
// clock waits.
export function waitingSentence(view) {
  const waiting = (view.clock && !view.over && view.clock.waiting) || [];
  if (!waiting.length) return "";
  const names = waiting.map((seat) => (seat === view.seat ? t("you") : view.players[seat].name));
  const who = names.length > 1
    ? t("{names} and {last}", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] })
    : names[0];
  return t("Waiting for {names} to open the game: the clocks start then.", { names: who });
}

export class Clocks {
  // `box` is where the clocks go (hidden for an untimed game).
  constructor(box) {
    this.box = box;
    this.view = null;
    this.arrived = 0;
    this.timer = null;
    this.faces = [];
  }

  // Show the clocks of a new view (every view: its times are as of when it was built).
  show(view) {
    this.view = view;
    this.arrived = performance.now();
    const clock = view.clock;
    this.box.hidden = !clock;
    if (!clock) return this.stop();
    this.build(view);
    this.tick();
    if (clock.running === null) this.stop();
    else if (!this.timer) this.timer = setInterval(() => this.tick(), 250);
  }

  build(view) {
    const names = view.players.map((player) => player.name);
    if (this.faces.length === names.length && this.faces.every((face, seat) => face.name === names[seat])) return;
    this.faces = names.map((name) => {
      const time = el("bdi", { class: "clock-time", dir: "ltr" }); // "−0:04" in Hebrew too
      const box = el("div", { class: "clock", role: "timer", "aria-label": plain(t("clock {name}", { name })) },
        el("span", { class: "clock-name", text: name }), time);
      return { name, box, time };
    });
    this.box.replaceChildren(...this.faces.map((face) => face.box));
  }

  // Each seat's time left now: the running seat's counts down from the view's arrival.
  tick() {
    const clock = this.view && this.view.clock;
    if (!clock) return;
    const passed = performance.now() - this.arrived;
    this.faces.forEach((face, seat) => {
      const running = clock.running === seat;
      const left = clock.remaining_ms[seat] - (running ? passed : 0);
      const text = formatClock(left, clock.kind);
      if (face.time.textContent !== text) face.time.textContent = text;
      face.box.classList.toggle("running", running);
      face.box.classList.toggle("overtime", left < 0);
      face.box.classList.toggle("low", clock.kind === "live" && left >= 0 && left < 10 * SECOND);
    });
    this.showOvertime(clock, passed);
  }

  // A running seat in overtime: the page says so, and what it costs so far (10 points for
  // each minute or part of a minute, 1 ms over is a minute). The sentence's {time} reads left to right
  // in Hebrew too (the translation isolates it).
  showOvertime(clock, passed) {
    const line = document.getElementById("clock-overtime");
    if (!line) return;
    const seat = clock.running;
    const left = seat === null || this.view.over ? 0 : clock.remaining_ms[seat] - passed;
    line.hidden = !(clock.kind === "live" && left < 0);
    if (line.hidden) return;
    const minutes = Math.ceil(-left / MINUTE);
    const values = {
      name: this.view.players[seat].name,
      time: formatClock(left, clock.kind),
      cost: OVERTIME_PENALTY,
      penalty: minutes * OVERTIME_PENALTY,
    };
    const text = seat === this.view.seat
      ? t("You are in overtime ({time}): each minute or part of a minute costs {cost} points ({penalty} so far).", values)
      : t("{name} is in overtime ({time}): each minute or part of a minute costs {cost} points ({penalty} so far).", values);
    if (line.textContent !== text) line.textContent = text;
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

// The Resign and Abort buttons of a seat: each asks for a confirmation, then tells the
// server, and the view it answers is shown (`onView`); a refusal is said (`say`).
export class EndButtons {
  constructor({ gameId, token, onView, say }) {
    this.gameId = gameId;
    this.token = token;
    this.onView = onView;
    this.say = say;
    this.resign = document.getElementById("resign");
    this.abort = document.getElementById("abort");
    this.resign.addEventListener("click", () => this.send("resign",
      t("Resign this game? With two players the other one wins; with more, you place last.")));
    this.abort.addEventListener("click", () => this.send("abort",
      t("Abort this game? Nobody wins. A game can be aborted until every player has moved once.")));
  }

  // Shown to a seat while the game goes on; Abort only until every seat has moved once.
  show(view, isSeat) {
    const going = isSeat && !view.over;
    this.resign.closest(".end-actions").hidden = !going;
    const moved = new Set(view.moves.map((move) => move.seat));
    this.abort.hidden = !going || moved.size >= view.players.length;
  }

  async send(action, question) {
    if (!window.confirm(question)) return;
    try {
      const path = `/api/games/${encodeURIComponent(this.gameId)}/${action}`;
      this.onView(await postJson(path, {}, this.token()));
    } catch (error) {
      this.say(error.message, "error");
    }
  }
}
