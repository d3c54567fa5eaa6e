// Open the fleet named in the address (a link from the map), so its ships show at once.
document.addEventListener("DOMContentLoaded", function () {
  var target = location.hash && document.getElementById(location.hash.slice(1));
  if (target && target.tagName === "DETAILS") { target.open = true; }
});
