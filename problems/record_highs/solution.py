from typing import List


def record_highs(temps: List[int]) -> int:
    records = 0
    highest = None
    for t in temps:
        if highest is None or t > highest:
            records += 1
            highest = t
    return records
