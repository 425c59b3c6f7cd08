// Start a session: the house-rules choice offers only what fits the chosen variant.
//
// Each variant's sets and presets are a group of the select named by the variant, as the
// variant's own option reads (scorebook.house_rules.start_choices). The others are hidden and
// disabled; a choice left in a hidden group goes back to "the club's default". Without this
// script every group shows, and a choice of another variant is refused at the field.
"use strict";

(function () {
  const variant = document.getElementById("id_variant");
  const preset = document.getElementById("id_preset");
  if (!variant || !preset) return;

  function offerTheVariants() {
    const chosen = variant.selectedOptions[0];
    const name = chosen ? chosen.text : "";
    for (const group of preset.querySelectorAll("optgroup")) {
      const fits = group.label === name;
      group.hidden = !fits;
      group.disabled = !fits;
    }
    const picked = preset.selectedOptions[0];
    if (picked && picked.parentElement.disabled) preset.value = "";
  }

  variant.addEventListener("change", offerTheVariants);
  offerTheVariants();
})();
