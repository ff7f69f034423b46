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
