"""Environments and adapters: PettingZoo AEC and Parallel environments, the single-seat and team Gymnasium
environments, their ``info`` dicts and retired versions. Imports the policies, files and the engine contract,
never a game, evaluation or training."""
