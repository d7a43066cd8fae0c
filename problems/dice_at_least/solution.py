from math import gcd
from typing import List


def dice_at_least(count: int, sides: int, target: int) -> List[int]:
    def add_die(ways):
        new = [0] * (len(ways) + sides - 1)
        window = 0
        for s in range(len(new)):
            if s < len(ways):
                window += ways[s]
            if s >= sides:
                window -= ways[s - sides]
            new[s] = window
        return new

    ways = [1]
    for _ in range(count):
        ways = add_die(ways)
    favourable = sum(ways[max(target - count, 0):])
    total = sides ** count
    g = gcd(favourable, total)
    return [favourable // g, total // g]
