from typing import List


def best_single_trade(prices: List[int]) -> int:
    best = 0
    lowest = None
    for price in prices:
        if lowest is None or price < lowest:
            lowest = price
        elif price - lowest > best:
            best = price - lowest
    return best
