// perclib's slider (perclib/widgets/slider.py): a native <input type="range"> named by its <label>,
// with the value in an <output>. The browser makes it keyboard operable (arrows, Page Up/Down,
// Home, End) and tells screen readers its name and value; nothing here draws a custom handle.
function format(value, spec) {
  // The readout_format specs slider.py accepts: "d", ".Nf", ".Ng" (as d3-format reads them).
  const digits = Number(spec.slice(1, -1));
  if (spec.endsWith("f")) return value.toFixed(digits);
  if (spec.endsWith("g")) return value.toPrecision(digits);
  return String(Math.round(value));
}

function render({ model, el }) {
  const id = `perclib-slider-${Math.random().toString(36).slice(2)}`; // one per view
  const label = document.createElement("label");
  const input = document.createElement("input");
  const output = document.createElement("output");
  label.htmlFor = id;
  input.id = id;
  input.type = "range";
  // JupyterLab binds the arrow keys to notebook commands (move between cells, headings) when the
  // focused element is not editable text; this attribute keeps them for the slider.
  input.setAttribute("data-lm-suppress-shortcuts", "true");
  output.setAttribute("for", id);
  el.classList.add("perclib-slider");
  el.append(label, input, output);

  // A log slider (base set) moves over the exponent; the model holds base ** exponent.
  const base = () => model.get("base");
  const toInput = (v) => (base() ? Math.log(v) / Math.log(base()) : v);
  const fromInput = (x) => (base() ? base() ** x : x);
  const shown = (v) => format(v, model.get("readout_format"));

  function draw() {
    label.textContent = model.get("description");
    input.min = model.get("min"); // bounds first: the browser clamps the value to them
    input.max = model.get("max");
    input.step = model.get("step");
    input.value = toInput(model.get("value"));
    input.disabled = model.get("disabled");
    output.textContent = shown(model.get("value"));
    input.setAttribute("aria-valuetext", output.textContent);
  }
  function read() {
    const value = fromInput(Number(input.value));
    output.textContent = shown(value);
    input.setAttribute("aria-valuetext", output.textContent);
    return value;
  }
  function send() {
    const value = read();
    if (value !== model.get("value")) {
      // once per move: "change" follows "input" with the same value while continuous_update
      model.set("value", value);
      model.save_changes();
    }
  }
  input.addEventListener("input", () => (model.get("continuous_update") ? send() : read()));
  input.addEventListener("change", send);
  for (const name of ["value", "min", "max", "step", "description", "readout_format", "disabled"]) {
    model.on(`change:${name}`, draw);
  }
  draw();
}

export default { render };
