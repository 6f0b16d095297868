// Card style form: the preview follows the four-colour switch before the style is saved.
document.querySelectorAll("[data-four-toggle]").forEach((box) => {
  const preview = document.querySelector(box.dataset.fourToggle);
  if (!preview) return;
  const show = () => {
    preview.querySelectorAll("img[data-four]").forEach((img) => {
      img.src = box.checked ? img.dataset.four : img.dataset.two;
    });
  };
  box.addEventListener("change", show);
  show(); // a reload can keep the box ticked
});
