// The games this browser knows, kept in localStorage: id, names and the tokens of its seats.

const KEY = "binscrabble.games";

export function listGames() {
  try {
    const games = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(games) ? games : [];
  } catch {
    return [];
  }
}

function saveGames(games) {
  localStorage.setItem(KEY, JSON.stringify(games));
}

// entry: {id, kind: "computer"|"hotseat"|"online", names: [...], tokens: {seat: token}, created}
export function rememberGame(entry) {
  const games = listGames().filter((game) => game.id !== entry.id);
  games.unshift(entry);
  saveGames(games.slice(0, 50));
}

export function findGame(id) {
  return listGames().find((game) => game.id === id) || null;
}

export function forgetGame(id) {
  saveGames(listGames().filter((game) => game.id !== id));
}

// A seat's token that arrived in a URL (an invite link) is kept so the game can be resumed.
export function rememberToken(id, seat, token, names, kind = "online") {
  const known = findGame(id);
  const entry = known || { id, kind, names: names || [], tokens: {}, created: Date.now() };
  entry.tokens = { ...entry.tokens, [seat]: token };
  if (names && names.length) entry.names = names;
  rememberGame(entry);
}

// The seat this tab plays in a game: its token, kept in sessionStorage (this tab only, kept
// over a reload) once read from an invite link, so the token leaves the address bar.
const SEAT_KEY = "binscrabble.seat.";

export function tabToken(id) {
  try {
    return sessionStorage.getItem(SEAT_KEY + id);
  } catch {
    return null;
  }
}

export function setTabToken(id, token) {
  try {
    if (token) sessionStorage.setItem(SEAT_KEY + id, token);
    else sessionStorage.removeItem(SEAT_KEY + id);
  } catch {
    // Storage refused (a private window's quota): the page still plays until it is reloaded.
  }
}

// Without a token in the address or in this tab, a seat this browser remembers for the game
// (the lobby's "Your games"), so a bookmark, the history or a new tab opens it as that seat.
// Of several (a hot-seat game), the first: the page hands over to the seat to move.
function rememberedToken(id) {
  const known = findGame(id);
  const seats = known && known.tokens ? Object.keys(known.tokens).sort((a, b) => a - b) : [];
  return seats.length ? known.tokens[seats[0]] : null;
}

// The token of an invite link (?token=), moved from the address bar into this tab's storage;
// without one in the address, the token this tab already keeps for the game, else one this
// browser remembers for it, if any.
export function takeLinkToken(id) {
  const url = new URL(location.href);
  const fromLink = url.searchParams.get("token");
  if (!fromLink) {
    const known = tabToken(id) || rememberedToken(id);
    if (known) setTabToken(id, known);
    return known;
  }
  setTabToken(id, fromLink);
  url.searchParams.delete("token");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  return fromLink;
}

// What a seat has arranged on its turn, kept in this tab's storage so a reload keeps it:
// {turn, rack, order: [codes as the rack shows them], placed: [{square, index, face, rotated}]}
// (index: the placed tile's place in `order`).
const ARRANGEMENT_KEY = "binscrabble.arrangement.";

export function loadArrangement(id, seat) {
  try {
    const saved = JSON.parse(sessionStorage.getItem(`${ARRANGEMENT_KEY}${id}.${seat}`) || "null");
    return saved && Array.isArray(saved.order) && Array.isArray(saved.placed) ? saved : null;
  } catch {
    return null;
  }
}

export function saveArrangement(id, seat, arrangement) {
  try {
    sessionStorage.setItem(`${ARRANGEMENT_KEY}${id}.${seat}`, JSON.stringify(arrangement));
  } catch {
    // Storage refused: the arrangement lasts until the page is reloaded.
  }
}
