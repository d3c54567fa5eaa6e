// "Times are shown in UTC — use Europe/Paris?" on the dashboard of an account showing times in UTC:
// fills the hidden form with the browser's zone and shows it instead of the plain link to Settings
// (which a page without JavaScript keeps). No inline script (Content-Security-Policy: script-src 'self').
(function () {
  document.addEventListener("DOMContentLoaded", function () {
    var offer = document.getElementById("tz-offer");
    var zone = window.Intl && Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!offer || !zone || zone === "UTC" || zone === "Etc/UTC") { return; }
    var form = offer.querySelector("form");
    var link = offer.querySelector(".tz-link");
    if (!form || !link) { return; }
    form.querySelector('input[name="time_zone"]').value = zone;
    form.querySelector(".tz-name").textContent = zone.replace(/_/g, " ");
    form.hidden = false;
    link.hidden = true;
  });
})();
