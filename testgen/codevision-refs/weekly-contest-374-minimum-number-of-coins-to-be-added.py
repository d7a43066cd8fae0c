from typing import List


class Solution:
    def minimumAddedCoins(self, coins: List[int], target: int) -> int:
        coins = sorted(coins)
        reach = 0  # every value in [0, reach] is obtainable
        added = 0
        i = 0
        while reach < target:
            if i < len(coins) and coins[i] <= reach + 1:
                reach += coins[i]
                i += 1
            else:
                # add the coin reach + 1, which doubles the covered range
                reach += reach + 1
                added += 1
        return added


def valid(coins, target):
    """The statement's constraints: 1 <= target <= 10^5, 1 <= len(coins) <= 10^5, 1 <= coins[i] <= target."""
    return (
        type(target) is int and 1 <= target <= 10 ** 5
        and isinstance(coins, list) and 1 <= len(coins) <= 10 ** 5
        and all(type(c) is int and 1 <= c <= target for c in coins)
    )
