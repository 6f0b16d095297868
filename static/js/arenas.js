// The arena pages: count down to each start and end, show errors, and go to the table once
// the socket says this player was paired (not on a first load: a player may look at the
// standings while their game goes on).
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));

  function left(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    const m = Math.floor((s % 3600) / 60), r = s % 60;
    if (d) return interpolate(gettext("%(d)s d %(h)s h"), { d: d, h: h }, true);
    if (h) return interpolate(gettext("%(h)s h %(m)s min"), { h: h, m: String(m).padStart(2, "0") }, true);
    return m + ":" + String(r).padStart(2, "0");
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach((el) => {
      const at = Date.parse(el.getAttribute("datetime"));
      if (!Number.isNaN(at)) el.textContent = left(at - now);
    });
  }

  const main = document.getElementById("arena-main");
  let seenTable = main ? main.dataset.redirect || "" : "";
  let toastShown = "";

  function update() {
    const now = document.getElementById("arena-main");
    const table = now ? now.dataset.redirect || "" : "";
    if (table && table !== seenTable) window.location.assign(table);
    seenTable = table;
    const toast = document.getElementById("table-error");
    if (toast && toast.textContent.trim() && toast.dataset.shown !== toastShown) {
      toastShown = toast.dataset.shown;
      toast.hidden = false;
      clearTimeout(update.timer);
      update.timer = setTimeout(() => { toast.hidden = true; }, 4000);
    }
    tick();
  }

  document.body.addEventListener("htmx:wsAfterMessage", update);
  setInterval(tick, 1000);
  tick();
})();
