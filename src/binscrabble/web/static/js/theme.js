// The colour theme of every page: the system's (prefers-color-scheme) unless the person
// chose the other one with the switch in the page's header, a choice remembered in this
// browser (localStorage). A plain script loaded in <head>, not a module: it sets
// data-theme on <html> before the page is first drawn, so no page flashes the other theme.
// Choosing the system's own theme again forgets the choice: the page follows the system.
(() => {
  const KEY = "binscrabble.theme";
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  const system = () => (dark.matches ? "dark" : "light");

  function chosen() {
    try {
      const value = localStorage.getItem(KEY);
      return value === "dark" || value === "light" ? value : null;
    } catch {
      return null; // storage refused (private mode): the system's theme
    }
  }

  function remember(theme) {
    try {
      if (theme === system()) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, theme);
    } catch {
      // Not remembered; the page still switches.
    }
  }

  const current = () => chosen() || system();

  function apply() {
    document.documentElement.dataset.theme = current();
    const button = document.getElementById("theme-switch");
    if (button) button.setAttribute("aria-pressed", String(current() === "dark"));
  }

  apply();
  dark.addEventListener("change", apply);
  // Another tab of this site switched: follow it.
  window.addEventListener("storage", (event) => {
    if (event.key === KEY) apply();
  });
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme-switch");
    if (!button) return;
    button.addEventListener("click", () => {
      remember(current() === "dark" ? "light" : "dark");
      apply();
    });
    apply();
  });
})();
