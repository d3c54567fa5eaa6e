// Live deadline countdowns: every element with data-deadline (an ISO 8601 time) shows the time left.
// Without JavaScript the page still shows the date and the server's "3 days, 4 hours left".
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function left(ms) {
    var s = Math.floor(ms / 1000);
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    return (d ? d + " d " : "") + pad(h) + ":" + pad(m) + ":" + pad(s % 60) + " left";
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-deadline]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(at)) { return; }
      var ms = at - now;
      el.textContent = ms > 0 ? left(ms) : "deadline passed";
      el.classList.toggle("urgent", ms > 0 && ms < 86400000);
      el.classList.toggle("passed", ms <= 0);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSwap", tick);
})();
