from typing import List


def fewest_coins(coins: List[int], amount: int) -> int:
    UNREACHABLE = amount + 1
    fewest = [0] + [UNREACHABLE] * amount
    for value in range(1, amount + 1):
        for coin in coins:
            if coin <= value and fewest[value - coin] + 1 < fewest[value]:
                fewest[value] = fewest[value - coin] + 1
    if fewest[amount] == UNREACHABLE:
        return -1
    return fewest[amount]
