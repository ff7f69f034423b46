// The language menu in every page's header (docs/web.md, "Right to left, and the language
// menu"): a disclosure (<details>) whose links name each language in its own words. A link
// reloads the page with ?lang=, which the server remembers in a cookie; the rest of the
// address is kept, and a game page keeps its seat (the token is in this tab's storage) and the tiles
// placed on its board. The links work without this script; it keeps the address's other
// parameters, marks the page's language and closes the menu with Escape or a click outside.
(() => {
  // Each link: this address with its language, made when the menu opens (a game page has
  // taken its seat's token out of the address by then; a token is never written here).
  function aim(menu) {
    const current = (document.documentElement.lang || "en").split("-")[0].toLowerCase();
    for (const link of menu.querySelectorAll("a[hreflang]")) {
      const address = new URL(window.location.href);
      address.searchParams.delete("token");
      address.searchParams.set("lang", link.hreflang);
      link.href = address.pathname + address.search + address.hash;
      if (link.hreflang === current) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    }
  }

  // The open list, moved sideways as far as needed to be wholly on the screen.
  function keepOnScreen(list) {
    list.style.transform = "";
    const box = list.getBoundingClientRect();
    const room = document.documentElement.clientWidth;
    const shift = box.left < 0 ? -box.left : box.right > room ? room - box.right : 0;
    if (shift) list.style.transform = `translateX(${shift}px)`;
  }

  function setUp() {
    const menu = document.getElementById("languages");
    if (!menu) return;
    aim(menu);
    menu.addEventListener("toggle", () => {
      aim(menu);
      if (menu.open) keepOnScreen(menu.querySelector("ul"));
    });
    menu.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !menu.open) return;
      menu.open = false;
      menu.querySelector("summary").focus();
      event.preventDefault();
    });
    document.addEventListener("click", (event) => {
      if (menu.open && !menu.contains(event.target)) menu.open = false;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
