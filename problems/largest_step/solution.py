from typing import List


def largest_step(altitudes: List[int]) -> int:
    largest = 0
    i = 1
    while i < len(altitudes):
        step = abs(altitudes[i] - altitudes[i - 1])
        if step > largest:
            largest = step
        i += 1
    return largest
