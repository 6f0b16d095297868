// The table's small client side: hotkeys, auto actions, the error toast, copying the code.
// Everything else arrives from the server as HTML over the room socket.
(function () {
  "use strict";
  // Per-game scripts (static/js/tables/<kind>.js) register here: {init(root, send)}.
  window.cubicTables = window.cubicTables || {};

  // Send any message over the room socket: {"type": "act", "action": ..., "seq": ...}.
  function send(message) {
    const sender = document.getElementById("ws-sender");
    if (!sender) return;
    sender.setAttribute("hx-vals", JSON.stringify(message));
    sender.click();
  }
  function act(action) {
    const main = document.getElementById("room-main");
    send({ type: "act", action: action, seq: Number(main ? main.dataset.seq : -1) });
  }
  window.cubic = { send: send, act: act, hint: () => send({ type: "hint" }) };

  function initTable() {
    const main = document.getElementById("room-main");
    const game = main && window.cubicTables[main.dataset.kind];
    if (game && game.init) game.init(main, window.cubic);
  }
  const AUTO_KEY = "cubic:auto:";

  function autoAct() {
    document.querySelectorAll("[data-auto-action]").forEach((box) => {
      const key = AUTO_KEY + box.dataset.autoAction;
      box.checked = localStorage.getItem(key) === "1";
      box.onchange = () => { localStorage.setItem(key, box.checked ? "1" : "0"); autoAct(); };
      if (!box.checked) return;
      const button = document.getElementById(box.dataset.autoAction);
      if (button && !button.disabled && !button.dataset.autoSent) {
        button.dataset.autoSent = "1";
        setTimeout(() => { if (document.body.contains(button) && !button.disabled) button.click(); }, 450);
      }
    });
  }

  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, select, textarea")) return;
    // Enter and Space belong to a focused button; other keys still reach the hotkeys.
    if (event.target.closest("button, summary") && (event.key === " " || event.key === "Enter")) return;
    const button = document.querySelector(`[data-hotkey="${event.key === " " ? " " : event.key}"]`);
    if (button && !button.disabled) {
      event.preventDefault();
      button.click();
    }
  });

  document.addEventListener("click", (event) => {
    const copy = event.target.closest("[data-copy]");
    if (copy && navigator.clipboard) {
      navigator.clipboard.writeText(copy.dataset.copy).then(() => { copy.textContent = "Copied!"; });
    }
    const sent = event.target.closest("[ws-send]");
    if (sent) sent.classList.add("sent");
  });

  function showToast() {
    const toast = document.getElementById("table-error");
    if (!toast || !toast.textContent.trim()) return;
    toast.hidden = false;
    clearTimeout(showToast.timer);
    showToast.timer = setTimeout(() => { toast.hidden = true; }, 4000);
  }

  function showHint() {
    const box = document.getElementById("table-hint");
    if (box && box.textContent.trim()) box.hidden = false;
  }

  document.body.addEventListener("htmx:wsAfterMessage", () => {
    initTable();
    autoAct();
    showToast();
    showHint();
  });
  document.body.addEventListener("htmx:wsClose", (event) => {
    document.body.classList.add("offline");
    // 4503: the tables are unavailable (Redis). The socket won't retry that by itself; the
    // page reloads into one that says so and comes back to the table when they are.
    if (event.detail.event && event.detail.event.code === 4503) setTimeout(() => location.reload(), 5000);
  });
  document.body.addEventListener("htmx:wsOpen", () => document.body.classList.remove("offline"));
  // This script and the per-game scripts after it are deferred: they run in order, then the
  // page fires DOMContentLoaded, so the first table is set up once every game has registered.
  document.addEventListener("DOMContentLoaded", () => {
    initTable();
    autoAct();
  });
})();
