// The colour theme, before the page is drawn (a classic script in <head>, so the page never flashes light first):
// the player's choice kept in this browser ("system", "light" or "dark"), "system" following the system's
// setting as it changes. style.css reads the result from <html data-theme>. app.js draws the picker.
(function () {
  const KEY = "bigtwo:theme";
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  function chosen() {
    try { const c = localStorage.getItem(KEY); return c === "light" || c === "dark" ? c : "system"; } catch { return "system"; }
  }
  function apply() {
    const c = chosen();
    document.documentElement.dataset.theme = c === "system" ? (system.matches ? "dark" : "light") : c;
  }
  function choose(c) {
    try { if (c === "light" || c === "dark") localStorage.setItem(KEY, c); else localStorage.removeItem(KEY); } catch { /* private mode */ }
    apply();
  }
  system.addEventListener("change", apply);
  window.addEventListener("storage", (ev) => { if (ev.key === KEY) apply(); }); // another tab chose
  apply();
  window.bigtwoTheme = { chosen, choose };
})();
