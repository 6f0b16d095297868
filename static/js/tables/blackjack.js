// Blackjack table: keeps the "Cash out…" confirmation open across live updates (a computer
// player's bet re-renders the table while a person is deciding).
(function () {
  "use strict";
  window.cubicTables = window.cubicTables || {};
  let cashOutOpen = false;

  window.cubicTables.blackjack = {
    init(root) {
      const box = root.querySelector("[data-cashout]");
      if (!box) {
        cashOutOpen = false;
        return;
      }
      box.open = cashOutOpen;
      box.addEventListener("toggle", () => { cashOutOpen = box.open; });
    },
  };
})();
