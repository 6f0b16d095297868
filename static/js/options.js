// Rule options forms (the room's game picker and /play/<kind>/): only the picked game's
// options are shown and sent, and an option with data-shown-when only while the other options
// have those values (e.g. a custom setting while the mode is "custom"), and a computer
// strength select only for the computer seats the table will have.
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
    // One strength select per computer seat the table will have: the table's size (the
    // "seats" choice, else everyone here) less the people who sit.
    form.querySelectorAll("fieldset[data-strengths]").forEach((set) => {
      const seats = form.querySelector('select[name="seats"]');
      const people = Number(set.dataset.people);
      const min = Number(set.dataset.min);
      const max = Number(set.dataset.max);
      const size = seats && seats.value ? Number(seats.value) : Math.max(people, min);
      const computers = Math.max(Math.min(size, max) - people, 0);
      set.hidden = computers === 0;
      set.querySelectorAll("label").forEach((label, index) => {
        label.hidden = index >= computers;
        label.querySelector("select").disabled = index >= computers;
      });
    });
  }

  document.querySelectorAll("form[data-options]").forEach(refresh);

  document.addEventListener("change", (event) => {
    const form = event.target.closest("form[data-options]");
    if (form) refresh(form);
  });
})();
