// Open the fleet named in the address (a link from the map), and the disclosures around it, so its
// ships show at once.
document.addEventListener("DOMContentLoaded", function () {
  var target = location.hash && document.getElementById(location.hash.slice(1));
  for (var node = target; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") { node.open = true; }
  }
});
