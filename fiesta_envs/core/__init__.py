"""The game-independent layer: engine contract, PettingZoo and Gymnasium adapters, policies."""
