// Filter the buttons of a long group of choices by the text typed above them.
document.querySelectorAll("input.filter").forEach(function (input) {
  input.addEventListener("input", function () {
    var words = input.value.toLowerCase();
    input.closest("fieldset").querySelectorAll(".choice").forEach(function (choice) {
      var name = choice.querySelector("button").dataset.name.toLowerCase();
      choice.style.display = name.indexOf(words) >= 0 ? "" : "none";
    });
  });
});
