"""Testing the environments: random-game fuzzing with invariants after every step (``fuzz``,
``invariants``) and the speed benchmark next to PettingZoo's connect_four (``bench``)."""
