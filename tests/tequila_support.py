"""Positions shared by the Tequila tests."""

#: A whole production chain: field - kiln - (road) - distiller - cask - (roads) - shop.
CHAIN = [
    "agave at 0 0 as 0",
    "kiln at 0 2 as 1",
    "road at 0 3 as 0",
    "distiller at 0 4 as 0",
    "cask at 0 5 as 0",
    "road at 1 6 as 0",
    "road at 2 6 as 0",
    "road at 3 6 as 0",
    "shop at 4 5 as 2",
]
