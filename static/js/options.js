// Rule options forms (the room's game picker and /play/<kind>/): only the picked game's
// options are shown and sent, and an option with data-shown-when only while the other options
// have those values (e.g. a custom setting while the mode is "custom").
(function () {
  "use strict";

  function refresh(form) {
    const picked = form.querySelector('input[name="game"]:checked');
    form.querySelectorAll("fieldset[data-game]").forEach((set) => {
      const on = !picked || set.dataset.game === picked.value;
      set.hidden = !on;
      set.disabled = !on;
    });
    form.querySelectorAll("[data-shown-when]").forEach((field) => {
      const scope = field.closest("fieldset[data-game]") || form;
      const wanted = JSON.parse(field.dataset.shownWhen);
      const shown = Object.entries(wanted).every(([name, value]) => {
        const other = scope.querySelector(`[name="${name}"]`);
        return other !== null && !other.disabled && other.value === value;
      });
      field.hidden = !shown;
      field.querySelectorAll("select, input").forEach((input) => { input.disabled = !shown; });
    });
  }

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form[data-options]");
    if (form) refresh(form);
  });
})();
