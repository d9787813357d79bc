// Keep the clickable squares of the board picture (an image map, in the picture's own pixels) on the squares
// when the picture is drawn smaller than its size (narrow windows).
function placeSquares() {
  document.querySelectorAll("img[usemap]").forEach(function (img) {
    var map = document.querySelector('map[name="' + img.useMap.slice(1) + '"]');
    if (!map || !img.naturalWidth) return;
    var scale = img.clientWidth / img.naturalWidth;
    map.querySelectorAll("area").forEach(function (area) {
      if (!area.dataset.coords) area.dataset.coords = area.coords;
      area.coords = area.dataset.coords.split(",").map(function (v) { return Math.round(v * scale); }).join(",");
    });
  });
}
window.addEventListener("load", placeSquares);
window.addEventListener("resize", placeSquares);
