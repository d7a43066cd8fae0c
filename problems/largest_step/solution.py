from typing import List


def largest_step(altitudes: List[int]) -> int:
    largest = 0
    for i in range(1, len(altitudes)):
        step = abs(altitudes[i] - altitudes[i - 1])
        if step > largest:
            largest = step
    return largest
