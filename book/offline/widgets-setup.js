// Loaded after require.js and before the widget renderer (html-manager's embed-amd.js), from the
// same vendor folder, on the handout pages and slides that show widgets.
(function () {
  "use strict";
  var here = document.currentScript.src.replace(/[^/]*$/, "");

  // 1. webpack in embed-amd.js looks for its fonts (Font Awesome icons of the Play and button
  //    widgets) in the folder of each AMD module's URL, which require.js derives from these paths:
  //    point every module embed-amd.js defines into html-manager/, where the fonts are.
  var paths = {"@jupyter-widgets/html-manager/dist": here + "html-manager"};
  ["base", "base7", "controls", "controls7", "html-manager", "output"].forEach(function (name) {
    paths["@jupyter-widgets/" + name] = here + "html-manager/" + name;
  });
  // perclib's sliders are anywidget widgets: html-manager asks require.js for the module
  // "anywidget" (before any CDN); it is anywidget's own AMD build, copied beside this file by
  // tools/build_handouts.py.
  paths.anywidget = here + "anywidget/index";
  window.require.config({paths: paths});

  // 2. ipywidgets 8 typesets widget labels with MathJax 2's API, MathJax.Hub.Queue(["Typeset",
  //    MathJax.Hub, element]); the handouts load MathJax 3, which has typesetPromise instead.
  var pending = [];
  function typeset(element) {
    var mj = window.MathJax;
    if (mj && mj.version && mj.startup && mj.startup.promise) {
      mj.startup.promise.then(function () { return window.MathJax.typesetPromise([element]); });
    } else {
      pending.push(element);
    }
  }
  var hub = {Queue: function (job) { if (Array.isArray(job) && job[2]) { typeset(job[2]); } }};
  var mj = window.MathJax = window.MathJax || {};
  mj.Hub = hub;
  if (!mj.version) {  // MathJax 3 is not loaded yet (it is deferred): hook into its start-up
    mj.startup = mj.startup || {};
    var ready = mj.startup.ready;
    mj.startup.ready = function () {
      if (ready) { ready(); } else { window.MathJax.startup.defaultReady(); }
      window.MathJax.Hub = hub;
      pending.splice(0).forEach(typeset);
    };
  }

  // 3. Names for screen readers. ipywidgets 8 draws a slider's handle (role="slider") apart from
  //    its description <label>, and the Play widget's buttons as bare icons, so neither has an
  //    accessible name. Name each from what the page already shows: the handle from its widget's
  //    label, a Play button from its icon, an image from its tooltip (a widget's `tooltip`).
  //    Nothing is invented: a control with no label, icon or tooltip stays unnamed (axe reports it).
  var ICONS = {"fa-play": "play", "fa-pause": "pause", "fa-stop": "stop", "fa-retweet": "repeat"};
  var counter = 0;
  function label(root) {
    root.querySelectorAll(".widget-slider .noUi-handle:not([aria-labelledby])").forEach(function (h) {
      var text = h.closest(".widget-slider").querySelector(":scope > label.widget-label");
      if (text && text.textContent.trim()) {
        text.id = text.id || "perclib-widget-label-" + (++counter);
        h.setAttribute("aria-labelledby", text.id);
      }
    });
    root.querySelectorAll("button.jupyter-button:not([aria-label])").forEach(function (b) {
      if (b.textContent.trim()) { return; }
      var icon = b.querySelector("i.fa");
      var name = icon && Object.keys(ICONS).filter(function (c) {
        return icon.classList.contains(c); })[0];
      if (name) { b.setAttribute("aria-label", ICONS[name]); }
    });
    root.querySelectorAll("img.widget-image:not([alt])").forEach(function (img) {
      var tip = (img.getAttribute("title") || "").trim();
      if (tip) { img.setAttribute("alt", tip); }
    });
  }
  var queued = false;  // once per frame, however many nodes the renderer and MathJax add
  new MutationObserver(function () {
    if (queued) { return; }
    queued = true;
    window.requestAnimationFrame(function () { queued = false; label(document); });
  }).observe(document.documentElement, {childList: true, subtree: true});
})();
