// Crazy 8 and 8 Américain (lobby/templates/tables/_shedding.html): tap a glowing card to play
// it; a wild card asks for the suit first (four big buttons); the Knock (or Mau) toggle goes
// with the next card played. Only actions from the table's legal list are ever sent.
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalogue, /jsi18n/<lang>/); as written without it.
  const gettext = window.gettext || ((s) => s);
  const interpolate = window.interpolate || ((f, o) => f.replace(/%\((\w+)\)s/g, (m, k) => String(o[k])));
  window.cubicTables = window.cubicTables || {};

  const tables = new WeakMap(); // section -> {reset()} for a table already set up
  // What the player was doing, kept across a re-render of the same state (another message
  // for the room can redraw the table while the player is choosing).
  let knockAt = null; // the seq at which Knock was pressed
  let pickingAt = null; // {seq, card}: the suit picker open for a wild card
  let focusAt = null; // {seq, selector}: the control that had the focus
  const kept = {}; // details name -> {key, open}: what the player opened or closed

  function keepOpen(table) {
    table.querySelectorAll("details[data-keep]").forEach((box) => {
      const name = box.dataset.keep;
      const key = box.dataset.key || "";
      const before = kept[name];
      if (before && before.key === key) box.open = before.open;
      else if ("autoOpen" in box.dataset) box.open = true; // a new round's reveal: open once
      kept[name] = { key: key, open: box.open };
      box.addEventListener("toggle", () => { kept[name] = { key: key, open: box.open }; });
    });
  }

  function init(root, cubic) {
    const table = root.querySelector("section.s8");
    if (!table) return;
    if (tables.has(table)) { // another message (an error, a hint) came: the table is as it was
      tables.get(table).reset();
      return;
    }
    const legal = JSON.parse(table.querySelector("#s8-legal").textContent);
    const seq = root.dataset.seq;
    const knock = table.querySelector("[data-knock]");
    const picker = table.querySelector("[data-picker]");
    let sent = false;
    let picking = null; // {card, button} while the suit picker is open for a wild card

    const knocking = () => Boolean(knock) && knock.getAttribute("aria-pressed") === "true";
    const plays = (card) => legal.filter(
      (a) => a.type === "play" && a.card === card && Boolean(a.knock) === knocking());

    function send(action) {
      if (sent) return;
      sent = true;
      table.classList.add("sent");
      knockAt = null;
      pickingAt = null;
      cubic.act(action);
    }

    function openPicker(card, button) {
      picking = { card: card, button: button };
      pickingAt = { seq: seq, card: card };
      const label = button.getAttribute("aria-label").split(",")[0];
      picker.querySelector("[data-picker-card]").textContent = interpolate(gettext("for your %(card)s"), { card: label }, true);
      picker.hidden = false;
      picker.querySelector("[data-suit]").focus();
    }

    function closePicker() {
      if (!picking) return;
      const { button } = picking;
      picking = null;
      pickingAt = null;
      picker.hidden = true;
      if (document.body.contains(button)) button.focus();
    }

    if (knock) {
      knock.setAttribute("aria-pressed", knockAt === seq ? "true" : "false");
      knock.addEventListener("click", () => {
        const on = !knocking();
        knock.setAttribute("aria-pressed", on ? "true" : "false");
        knockAt = on ? seq : null;
      });
    }

    table.querySelectorAll(".s8-card.playable").forEach((button) => {
      button.addEventListener("click", () => {
        const card = button.dataset.card;
        const options = plays(card);
        if (!options.length) return;
        if ("wild" in button.dataset) openPicker(card, button);
        else send(options[0]);
      });
    });

    picker.querySelectorAll("[data-suit]").forEach((button) => {
      button.addEventListener("click", () => {
        if (!picking) return;
        const action = plays(picking.card).find((a) => a.suit === button.dataset.suit);
        if (action) send(action);
      });
    });
    const cancel = picker.querySelector("[data-picker-cancel]");
    if (cancel) cancel.addEventListener("click", closePicker);
    picker.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        closePicker();
        return;
      }
      const suit = picker.querySelector(`[data-suit="${event.key.toUpperCase()}"]`);
      if (picking && suit && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        suit.click();
      }
    });

    keepOpen(table);
    if (pickingAt && pickingAt.seq === seq) {
      const card = table.querySelector(`.s8-card.playable[data-card="${pickingAt.card}"]`);
      if (card) openPicker(pickingAt.card, card);
    }
    const active = document.activeElement;
    const free = !active || active === document.body || table.contains(active);
    if (focusAt && focusAt.seq === seq && free) {
      const again = table.querySelector(focusAt.selector);
      if (again && !again.disabled) again.focus();
    }
    table.addEventListener("focusin", (event) => {
      const el = event.target;
      let selector = null;
      if (el.dataset.card) selector = `.s8-card[data-card="${el.dataset.card}"]`;
      else if (el.dataset.suit && el.closest("[data-picker]")) selector = `[data-picker] [data-suit="${el.dataset.suit}"]`;
      else if (el.id) selector = `#${el.id}`;
      else if ("knock" in el.dataset) selector = "[data-knock]";
      focusAt = selector ? { seq: seq, selector: selector } : null;
    });
    tables.set(table, {
      reset() {
        sent = false;
        table.classList.remove("sent");
      },
    });
  }

  window.cubicTables.crazy8 = { init: init };
  window.cubicTables.american8 = { init: init };
})();
