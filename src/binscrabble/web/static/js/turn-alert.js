// "Your turn": the tab's title says so while it is this seat's turn, and a short chime
// (made here with WebAudio, no sound file) plays when the turn becomes this seat's, if the
// player switched the sound on. The switch is off until chosen, and remembered in this
// browser (localStorage). The game page calls noticeTurn(view) with every view it draws.

import { t } from "./i18n.js";

const KEY = "binscrabble.turnSound";
const TITLE = t("Binary Scrabble");

let audio = null; // the AudioContext, made on the first gesture that needs it
let last = null; // {seat, mine} of the view noticed last

function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false;
  }
}

function context() {
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!audio && Audio) audio = new Audio();
  // A context made before any click or key stays suspended until one; resume in a gesture.
  if (audio && audio.state === "suspended") audio.resume();
  return audio;
}

// Two rising notes, 0.3 s in all, soft attack and decay.
function chime() {
  const sound = context();
  if (!sound) return;
  const start = sound.currentTime + 0.02;
  for (const [offset, pitch] of [[0, 660], [0.14, 990]]) {
    const tone = sound.createOscillator();
    const level = sound.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    level.gain.setValueAtTime(0.0001, start + offset);
    level.gain.exponentialRampToValueAtTime(0.2, start + offset + 0.02);
    level.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.16);
    tone.connect(level).connect(sound.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.18);
  }
  const box = document.getElementById("turn-sound");
  if (box) box.dataset.chimes = String(Number(box.dataset.chimes || 0) + 1);
}

function setUp() {
  const box = document.getElementById("turn-sound");
  if (!box || box.dataset.ready) return;
  box.dataset.ready = "yes";
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, box.checked ? "on" : "off");
    } catch {
      // Storage refused (a private window): the switch holds for this page only.
    }
    if (box.checked) chime(); // what it will sound like, and the gesture audio needs
  });
  // A remembered switch: the first click or key on the page lets the audio start.
  const unlock = () => {
    if (box.checked) context();
  };
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });
}

// Call with every view drawn: the title follows the turn; the chime plays only when the
// turn passes to this seat (not on the first view, nor when the device changes seats).
export function noticeTurn(view) {
  setUp();
  const seat = Number.isInteger(view.seat) ? view.seat : null;
  const mine = seat !== null && !view.over && view.to_move === seat;
  const names = view.players.map((player) => player.name).reduce((first, second) => t("{first} vs {second}", { first, second }));
  document.title = `${mine ? `● ${t("Your turn")} — ` : ""}${TITLE} — ${names}`;
  const becameMine = mine && last !== null && last.seat === seat && !last.mine;
  last = { seat, mine };
  const box = document.getElementById("turn-sound");
  if (box) box.closest("label").hidden = seat === null;
  if (becameMine && box && box.checked) chime();
}
