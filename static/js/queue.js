// The waiting page: tick the wait clocks, show errors, and go to the table once seated.
(function () {
  "use strict";
  let arrived = Date.now();

  function tick() {
    const gone = (Date.now() - arrived) / 1000;
    document.querySelectorAll("[data-waited]").forEach((el) => {
      el.textContent = Math.floor(Number(el.dataset.waited) + gone);
    });
  }

  let toastShown = ""; // the last error shown (its data-shown stamp): each shows once

  function update() {
    arrived = Date.now();
    const main = document.getElementById("queue-main");
    if (main && main.dataset.redirect) window.location.assign(main.dataset.redirect);
    const toast = document.getElementById("table-error");
    if (toast && toast.textContent.trim() && toast.dataset.shown !== toastShown) {
      toastShown = toast.dataset.shown;
      toast.hidden = false;
      clearTimeout(update.timer);
      update.timer = setTimeout(() => { toast.hidden = true; }, 4000);
    }
  }

  document.body.addEventListener("htmx:wsAfterMessage", update);
  setInterval(tick, 1000);
  update();
})();
