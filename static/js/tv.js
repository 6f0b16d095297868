// The TV: when the table's game ends (or there is none), ask for the next one after a pause.
(function () {
  "use strict";
  const tv = document.querySelector("[data-tv]");
  if (!tv) return;
  let leaving = false;
  function next(delay) {
    if (leaving) return;
    leaving = true;
    setTimeout(() => window.location.assign(tv.dataset.tv), delay);
  }
  function check() {
    const main = document.getElementById("room-main");
    if (main && main.dataset.over === "1") next(8000);
  }
  if (tv.hasAttribute("data-tv-empty")) next(15000);
  document.body.addEventListener("htmx:wsAfterMessage", check);
  check();
})();
