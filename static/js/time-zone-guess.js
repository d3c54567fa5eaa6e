// Offer the browser's own zone (the form works without this). The <script> tag names the select
// in data-select, so the page needs no inline script (Content-Security-Policy: script-src 'self').
(function () {
  var selectId = document.currentScript && document.currentScript.dataset.select;
  document.addEventListener("DOMContentLoaded", function () {
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    var select = selectId && document.getElementById(selectId);
    var button = document.getElementById("tz-guess");
    if (!zone || !select || !button || !select.querySelector('option[value="' + zone + '"]')) { return; }
    button.hidden = false;
    button.textContent = "Use this device's zone (" + zone + ")";
    button.addEventListener("click", function () { select.value = zone; });
  });
})();
