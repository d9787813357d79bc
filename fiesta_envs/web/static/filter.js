// Filter the buttons of a long group of choices by the text typed above them (matched in the button's label).
document.querySelectorAll("input.filter").forEach(function (input) {
  input.addEventListener("input", function () {
    var words = input.value.toLowerCase();
    input.closest("fieldset").querySelectorAll(".choice").forEach(function (choice) {
      var label = choice.querySelector("button").textContent.toLowerCase();
      choice.style.display = label.indexOf(words) >= 0 ? "" : "none";
    });
  });
});
