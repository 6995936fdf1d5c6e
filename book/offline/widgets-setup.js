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
})();
