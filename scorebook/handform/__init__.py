"""The hand form, one module per job: the posted values (`values`), the form <-> the hand JSON
of HANDS.md and the engine's problems at their fields (`mapping`), what the template draws
(`controls`, `widgets`) and the card counter (`counter`). Nothing about a variant is written
here: it all comes from the engine's registry."""
