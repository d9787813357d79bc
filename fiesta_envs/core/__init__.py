"""The engine contract every game implements: ``Game``, its options, errors, random generators, rewards,
state fields, observers and determinization. It imports nothing else of the package."""
