from typing import List


def longest_rising_run(prices: List[int]) -> int:
    if not prices:
        return 0
    best = 1
    current = 1
    for i in range(1, len(prices)):
        if prices[i] > prices[i - 1]:
            current += 1
            if current > best:
                best = current
        else:
            current = 1
    return best
